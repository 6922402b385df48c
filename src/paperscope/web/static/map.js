// The venue map: thousands of papers on a canvas, coloured by topic, topic labels on their
// clusters, a tooltip on hover (textContent only), click to open a paper, search results
// highlighted. Data: GET /api/map (points with x, y, topic, label) and GET /api/search.
(function () {
  "use strict";
  var wrap = document.getElementById("map-wrap");
  if (!wrap) return;
  var canvas = document.getElementById("map"), tip = document.getElementById("map-tip");
  var ctx = canvas.getContext("2d");
  // 15 colours told apart at a glance: Okabe & Ito's colour-blind-safe 8, then the 7 of
  // Tableau 10 farthest from them (= TOPIC_COLOURS in cli/render_map.py; a test keeps the two
  // equal and checks their distances in CIELAB). Topics past 15 repeat them (the legend names all).
  var PALETTE = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
                 "#BAB0AC", "#E15759", "#9C755F", "#76B7B2", "#FF9DA7", "#59A14F", "#F28E2B"];
  var points = [], topics = [], byId = {}, highlighted = null, focus = wrap.dataset.focus || null;
  var view = { scale: 1, ox: 0, oy: 0, w: 0, h: 0 }, grid = {}, CELL = 12;

  function colour(topic) {
    if (topic === null || topic === undefined || topic === -1 || topic === "-1") return "#b8bec6";
    var i = typeof topic === "number" ? topic : hash(String(topic));
    return PALETTE[Math.abs(i) % PALETTE.length];
  }
  function hash(s) { var h = 0; for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return h; }

  function normalise(data) {
    var pts = Array.isArray(data) ? data : (data.points || []);
    points = pts.filter(function (p) { return isFinite(p.x) && isFinite(p.y); }).map(function (p) {
      return { id: String(p.id), x: +p.x, y: +p.y, topic: p.topic === undefined ? p.topic_id : p.topic,
               label: String(p.label || p.title || p.id), topicLabel: p.topic_label ? String(p.topic_label) : "" };
    });
    byId = {};
    points.forEach(function (p) { byId[p.id] = p; });
    topics = Array.isArray(data) ? [] : (data.topics || []);
    if (!topics.length) topics = centroids();
  }
  function centroids() {
    var acc = {};
    points.forEach(function (p) {
      if (p.topic === null || p.topic === undefined || p.topic === -1) return;
      var a = acc[p.topic] || (acc[p.topic] = { id: p.topic, x: 0, y: 0, size: 0, label: p.topicLabel || ("#" + p.topic) });
      a.x += p.x; a.y += p.y; a.size += 1;
    });
    return Object.keys(acc).map(function (k) { var a = acc[k]; a.x /= a.size; a.y /= a.size; return a; });
  }

  function layout() {
    // a phone's narrow canvas gets a square, so labels have room beside the papers
    var dpr = window.devicePixelRatio || 1, cssW = canvas.clientWidth || 1000,
        cssH = Math.round(cssW * (cssW < NARROW ? 1 : 0.68));
    canvas.width = Math.round(cssW * dpr); canvas.height = Math.round(cssH * dpr);
    canvas.style.height = cssH + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    var minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    points.forEach(function (p) { minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x); minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y); });
    var pad = 24, sx = (cssW - 2 * pad) / ((maxX - minX) || 1), sy = (cssH - 2 * pad) / ((maxY - minY) || 1);
    view = { scale: Math.min(sx, sy), w: cssW, h: cssH };
    view.ox = pad + ((cssW - 2 * pad) - (maxX - minX) * view.scale) / 2 - minX * view.scale;
    view.oy = pad + ((cssH - 2 * pad) - (maxY - minY) * view.scale) / 2 + maxY * view.scale;
    grid = {};
    points.forEach(function (p) {
      p.sx = view.ox + p.x * view.scale; p.sy = view.oy - p.y * view.scale;
      var key = Math.floor(p.sx / CELL) + ":" + Math.floor(p.sy / CELL);
      (grid[key] || (grid[key] = [])).push(p);
    });
  }

  function draw() {
    ctx.clearRect(0, 0, view.w, view.h);
    var groups = {};
    points.forEach(function (p) { var c = colour(p.topic); (groups[c] || (groups[c] = [])).push(p); });
    ctx.globalAlpha = highlighted ? 0.25 : 0.8;
    Object.keys(groups).forEach(function (c) {
      ctx.fillStyle = c; ctx.beginPath();
      groups[c].forEach(function (p) { ctx.moveTo(p.sx + 2.5, p.sy); ctx.arc(p.sx, p.sy, 2.5, 0, 6.2832); });
      ctx.fill();
    });
    ctx.globalAlpha = 1;
    var marked = [];
    if (highlighted) highlighted.forEach(function (id) { if (byId[id]) marked.push(byId[id]); });
    if (focus && byId[focus]) marked.push(byId[focus]);
    marked.forEach(function (p) {
      ctx.beginPath(); ctx.arc(p.sx, p.sy, 5, 0, 6.2832);
      ctx.fillStyle = colour(p.topic); ctx.fill(); ctx.lineWidth = 1.5; ctx.strokeStyle = "#111"; ctx.stroke();
    });
    drawLabels();
    canvas.dataset.ready = "1";
  }

  // Where a topic's label goes: on the member point with the most members of the same topic
  // within a radius (the heart of its largest island), not the mean of its points, which for
  // a topic split over two islands falls between them, on another topic.
  function anchors() {
    var r = Math.max(12, Math.min(view.w, view.h) / 28), r2 = r * r, reach = Math.ceil(r / CELL), best = {};
    points.forEach(function (p) {
      if (p.topic === null || p.topic === undefined || p.topic === -1) return;
      var cx = Math.floor(p.sx / CELL), cy = Math.floor(p.sy / CELL), n = 0;
      for (var i = -reach; i <= reach; i++) for (var j = -reach; j <= reach; j++) {
        var cell = grid[(cx + i) + ":" + (cy + j)];
        if (!cell) continue;
        for (var k = 0; k < cell.length; k++) {
          var q = cell[k];
          if (q.topic === p.topic && (q.sx - p.sx) * (q.sx - p.sx) + (q.sy - p.sy) * (q.sy - p.sy) <= r2) n++;
        }
      }
      var b = best[p.topic];
      if (!b || n > b.n) best[p.topic] = { n: n, x: p.sx, y: p.sy };
    });
    return best;
  }

  // A topic's label on the map: its first terms, whole, as many as fit in `room` pixels (and at
  // most `most`); "" when not even the first fits (the legend names the topic in full).
  function fitTerms(label, room, most) {
    var terms = String(label || "").split(/,\s*/).filter(Boolean), text = "";
    for (var i = 0; i < terms.length && i < most; i++) {
      var next = text ? text + ", " + terms[i] : terms[i];
      if (ctx.measureText(next).width > room) break;
      text = next;
    }
    return text;
  }

  // Papers a label box centred at (x, y) would hide.
  function hiddenBy(x, y, w, h) {
    var n = 0, x0 = Math.floor((x - w / 2) / CELL), x1 = Math.floor((x + w / 2) / CELL);
    var y0 = Math.floor((y - h / 2) / CELL), y1 = Math.floor((y + h / 2) / CELL);
    for (var i = x0; i <= x1; i++) for (var j = y0; j <= y1; j++) {
      (grid[i + ":" + j] || []).forEach(function (p) {
        if (Math.abs(p.sx - x) * 2 <= w && Math.abs(p.sy - y) * 2 <= h) n++;
      });
    }
    return n;
  }

  // Where a label of w x h goes near its anchor a: inside the canvas, clear of every label
  // placed before it; the nearest such slot, or with `fewest` (a phone) the one over the
  // fewest papers.
  function placeLabel(a, w, h, offsets, fewest) {
    var best = null;
    for (var i = 0; i < offsets.length && !(best && (!fewest || best.hidden === 0)); i++) {
      var x = Math.min(Math.max(a.x + offsets[i][0] * w, w / 2 + 2), view.w - w / 2 - 2);
      var y = Math.min(Math.max(a.y + offsets[i][1] * h, h / 2 + 2), view.h - h / 2 - 2);
      var free = placedLabels.every(function (b) {
        return Math.abs(b.x - x) * 2 >= b.w + w + 4 || Math.abs(b.y - y) * 2 >= b.h + h + 2;
      });
      if (!free) continue;
      var hidden = hiddenBy(x, y, w, h);
      if (!best || hidden < best.hidden) best = { x: x, y: y, w: w, h: h, hidden: hidden };
    }
    return best;
  }

  // Labels, biggest topics first, each in its slot (a short leader line when moved from its
  // anchor); a label with no slot is left to the legend. Labels together cover at most a share
  // of the canvas and hide at most a share of the papers (less on a phone, where a label also
  // carries one term), so the papers stay visible.
  var placedLabels = [], NARROW = 600;
  function drawLabels() {
    var narrow = view.w < NARROW, at = anchors(), H = narrow ? 15 : 17, pad = 3;
    var room = Math.min(250, view.w * (narrow ? 0.42 : 0.28)), most = narrow ? 1 : 3;
    var area = view.w * view.h * (narrow ? 0.1 : 0.16), used = 0;
    var hide = points.length * (narrow ? 0.05 : 0.15), hiddenSoFar = 0;
    placedLabels = [];
    ctx.font = "600 " + (narrow ? 11 : 12) + "px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    var offsets = [], reach = narrow ? 8 : 5;
    for (var dy = 0; dy <= reach; dy++) [dy, -dy].forEach(function (d, k) {
      if (k && !dy) return;
      [0, -0.5, 0.5, -1, 1].forEach(function (dx) { offsets.push([dx, d]); });
    });
    topics.slice().sort(function (a, b) { return (b.size || 0) - (a.size || 0); }).forEach(function (tp) {
      var a = at[tp.id], text = a ? fitTerms(tp.label, room - 2 * pad, most) : "";
      var w = ctx.measureText(text).width + 2 * pad;
      if (!text || used + w * H > area) return;
      var spot = placeLabel(a, w, H, offsets, narrow);
      if (!spot || hiddenSoFar + spot.hidden > hide) return;
      spot.topic = tp.id; spot.label = text; spot.ax = a.x; spot.ay = a.y;
      placedLabels.push(spot);
      used += w * H; hiddenSoFar += spot.hidden;
      if (Math.abs(spot.x - a.x) > w / 2 || Math.abs(spot.y - a.y) > H / 2) {
        ctx.beginPath(); ctx.moveTo(a.x, a.y); ctx.lineTo(spot.x, spot.y + (spot.y > a.y ? -H / 2 : H / 2));
        ctx.strokeStyle = "rgba(40,40,40,.55)"; ctx.lineWidth = 1; ctx.stroke();
      }
      ctx.fillStyle = "rgba(255,255,255,.88)";
      ctx.fillRect(spot.x - w / 2, spot.y - H / 2, w, H);
      ctx.strokeStyle = colour(tp.id); ctx.lineWidth = 1.2;
      ctx.strokeRect(spot.x - w / 2, spot.y - H / 2, w, H);
      ctx.fillStyle = "#1d232b"; ctx.fillText(text, spot.x, spot.y + 0.5);
    });
  }

  function nearest(mx, my) {
    var best = null, bestD = 64, cx = Math.floor(mx / CELL), cy = Math.floor(my / CELL);
    for (var i = -1; i <= 1; i++) for (var j = -1; j <= 1; j++) {
      (grid[(cx + i) + ":" + (cy + j)] || []).forEach(function (p) {
        var d = (p.sx - mx) * (p.sx - mx) + (p.sy - my) * (p.sy - my);
        if (d < bestD) { bestD = d; best = p; }
      });
    }
    return best;
  }
  function mouse(ev) { var r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }

  canvas.addEventListener("mousemove", function (ev) {
    var m = mouse(ev), p = nearest(m[0], m[1]);
    if (!p) { tip.hidden = true; canvas.style.cursor = "crosshair"; return; }
    tip.textContent = p.label + (p.topicLabel ? " — " + p.topicLabel : "");
    tip.hidden = false;
    tip.style.left = Math.min(m[0] + 12, view.w - 200) + "px";
    tip.style.top = (m[1] + 12) + "px";
    canvas.style.cursor = "pointer";
  });
  canvas.addEventListener("mouseleave", function () { tip.hidden = true; });
  canvas.addEventListener("click", function (ev) {
    var m = mouse(ev), p = nearest(m[0], m[1]);
    if (p) window.location.href = "/paper/" + encodeURIComponent(p.id);
  });

  function legend() {
    var ul = document.getElementById("map-legend");
    ul.textContent = "";
    topics.slice().sort(function (a, b) { return (b.size || 0) - (a.size || 0); }).slice(0, 30).forEach(function (tp) {
      var li = document.createElement("li"), sw = document.createElement("span");
      sw.className = "swatch"; sw.style.background = colour(tp.id);
      li.appendChild(sw); li.appendChild(document.createTextNode(String(tp.label || "") + (tp.size ? " (" + tp.size + ")" : "")));
      ul.appendChild(li);
    });
  }

  // search highlight
  var input = document.getElementById("map-q"), count = document.getElementById("map-count"), timer = null;
  function highlight() {
    var q = input.value.trim();
    if (!q) { highlighted = null; count.textContent = ""; draw(); return; }
    // the top results only: about one paper in twenty, between 10 and 200
    var k = Math.max(10, Math.min(200, Math.round(points.length / 20)));
    var params = new URLSearchParams({ query: q, limit: String(k) });
    if (wrap.dataset.venue) params.set("venue", wrap.dataset.venue);
    if (wrap.dataset.year) params.set("year", wrap.dataset.year);
    fetch("/api/search?" + params.toString()).then(function (r) { return r.ok ? r.json() : []; }).then(function (hits) {
      highlighted = (hits || []).map(function (h) { return String(h.id); });
      var shown = highlighted.filter(function (id) { return byId[id]; }).length;
      count.textContent = shown + " / " + highlighted.length;
      draw();
    });
  }
  if (input) {
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(highlight, 300); });
    input.form.addEventListener("submit", function (ev) { if (document.activeElement === input) { ev.preventDefault(); highlight(); } });
  }

  // test and automation hook: where a paper is drawn, in CSS pixels relative to the canvas
  window.paperscopeMap = {
    screenPoint: function (id) { var p = byId[id]; return p ? { x: p.sx, y: p.sy } : null; },
    ids: function () { return points.map(function (p) { return p.id; }); },
    highlighted: function () { return highlighted ? highlighted.slice() : []; },
    labels: function () { return placedLabels.map(function (b) { return { x: b.x, y: b.y, w: b.w, h: b.h, topic: b.topic, label: b.label, ax: b.ax, ay: b.ay }; }); },
    size: function () { return { w: view.w, h: view.h }; },
    topicOf: function (id) { var p = byId[id]; return p ? p.topic : null; }
  };

  var status = document.createElement("p");
  status.className = "muted"; status.textContent = wrap.dataset.loading;
  wrap.after(status);
  fetch(wrap.dataset.src).then(function (r) {
    if (!r.ok) return r.json().then(function (e) { throw new Error(e.error || r.status); });
    return r.json();
  }).then(function (data) {
    normalise(data); layout(); draw(); legend(); status.remove();
    if (input && input.value.trim()) highlight();
    window.addEventListener("resize", function () { layout(); draw(); });
  }).catch(function (err) {
    status.textContent = String(err.message);
    status.className = "error";
  });
})();
