"""The self-contained HTML map page (no external assets). `__TITLE__` is HTML-escaped text and
`__DATA__` JSON with "<" escaped; the script writes paper text only through textContent."""

PAGE = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; display: flex; height: 100vh; color: #222; }
  #side { width: 300px; overflow-y: auto; border-right: 1px solid #ddd; padding: 8px 10px; box-sizing: border-box; }
  #side h1 { font-size: 16px; margin: 4px 0 8px; }
  #side p { margin: 0 0 8px; color: #555; font-size: 12px; }
  .topic { display: flex; gap: 6px; align-items: baseline; padding: 3px 2px; cursor: pointer; border-radius: 4px; }
  .topic:hover, .topic.on { background: #eef; }
  .swatch { width: 10px; height: 10px; border-radius: 50%; flex: none; }
  .size { color: #777; margin-left: auto; font-size: 12px; }
  #wrap { position: relative; flex: 1; }
  canvas { width: 100%; height: 100%; display: block; cursor: grab; }
  #tip { position: absolute; pointer-events: none; background: #fff; border: 1px solid #999; padding: 4px 6px;
         font-size: 12px; max-width: 360px; display: none; box-shadow: 0 1px 4px rgba(0,0,0,.2); }
</style>
</head>
<body>
<div id="side"><h1>__TITLE__</h1><p>Hover a point for its paper, scroll to zoom, drag to pan, click a topic to highlight it.</p><div id="legend"></div></div>
<div id="wrap"><canvas id="map"></canvas><div id="tip"></div></div>
<script type="application/json" id="data">__DATA__</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var pts = data.points, topics = data.topics, colour = {}, label = {};
  topics.forEach(function (t) { colour[t.id] = t.colour; label[t.id] = t.label; });
  var canvas = document.getElementById("map"), ctx = canvas.getContext("2d");
  var tip = document.getElementById("tip"), legend = document.getElementById("legend");
  var view = { scale: 1, dx: 0, dy: 0 }, focus = null, hover = -1, W = 0, H = 0;

  function base() { return Math.min(W, H) * 0.47; }
  function sx(x) { return W / 2 + (x * base()) * view.scale + view.dx; }
  function sy(y) { return H / 2 - (y * base()) * view.scale + view.dy; }

  function resize() {
    var r = canvas.getBoundingClientRect(), d = window.devicePixelRatio || 1;
    W = r.width; H = r.height; canvas.width = W * d; canvas.height = H * d;
    ctx.setTransform(d, 0, 0, d, 0, 0); draw();
  }

  function draw() {
    ctx.clearRect(0, 0, W, H);
    var rad = Math.max(1.5, Math.min(4, 2400 / Math.sqrt(pts.length + 1) / 20)) * Math.sqrt(view.scale);
    for (var i = 0; i < pts.length; i++) {
      var p = pts[i];
      ctx.globalAlpha = focus === null || focus === p[2] ? 0.75 : 0.08;
      ctx.fillStyle = colour[p[2]] || "#888";
      ctx.beginPath(); ctx.arc(sx(p[0]), sy(p[1]), rad, 0, 6.2832); ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.font = "12px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    topics.forEach(function (t) {
      if (focus !== null && focus !== t.id) return;
      var x = sx(t.at[0]), y = sy(t.at[1]), w = ctx.measureText(t.label).width + 10;
      ctx.fillStyle = "rgba(255,255,255,0.85)"; ctx.fillRect(x - w / 2, y - 9, w, 18);
      ctx.strokeStyle = t.colour; ctx.strokeRect(x - w / 2, y - 9, w, 18);
      ctx.fillStyle = "#111"; ctx.fillText(t.label, x, y);
    });
    if (hover >= 0) {
      var h = pts[hover];
      ctx.strokeStyle = "#000"; ctx.lineWidth = 2; ctx.beginPath();
      ctx.arc(sx(h[0]), sy(h[1]), rad + 3, 0, 6.2832); ctx.stroke(); ctx.lineWidth = 1;
    }
  }

  topics.forEach(function (t) {
    var row = document.createElement("div"), sw = document.createElement("span"),
        name = document.createElement("span"), size = document.createElement("span");
    row.className = "topic"; sw.className = "swatch"; sw.style.background = t.colour;
    name.textContent = t.label; size.className = "size"; size.textContent = t.size;
    row.appendChild(sw); row.appendChild(name); row.appendChild(size);
    row.addEventListener("click", function () {
      focus = focus === t.id ? null : t.id;
      Array.prototype.forEach.call(legend.children, function (c) { c.classList.remove("on"); });
      if (focus !== null) row.classList.add("on");
      draw();
    });
    legend.appendChild(row);
  });

  var drag = null;
  canvas.addEventListener("mousedown", function (e) { drag = { x: e.clientX, y: e.clientY }; });
  window.addEventListener("mouseup", function () { drag = null; });
  canvas.addEventListener("mousemove", function (e) {
    var r = canvas.getBoundingClientRect(), mx = e.clientX - r.left, my = e.clientY - r.top;
    if (drag) { view.dx += e.clientX - drag.x; view.dy += e.clientY - drag.y; drag = { x: e.clientX, y: e.clientY }; draw(); return; }
    var best = -1, bd = 64;
    for (var i = 0; i < pts.length; i++) {
      var ddx = sx(pts[i][0]) - mx, ddy = sy(pts[i][1]) - my, d = ddx * ddx + ddy * ddy;
      if (d < bd && (focus === null || focus === pts[i][2])) { bd = d; best = i; }
    }
    if (best !== hover) { hover = best; draw(); }
    if (best >= 0) {
      tip.textContent = "";
      var b = document.createElement("b"); b.textContent = pts[best][3] || pts[best][4];
      var s = document.createElement("div"); s.textContent = label[pts[best][2]] || "";
      s.style.color = "#555"; tip.appendChild(b); tip.appendChild(s);
      tip.style.left = Math.min(mx + 12, W - 370) + "px"; tip.style.top = (my + 12) + "px"; tip.style.display = "block";
    } else { tip.style.display = "none"; }
  });
  canvas.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = canvas.getBoundingClientRect(), mx = e.clientX - r.left - W / 2 - view.dx, my = e.clientY - r.top - H / 2 - view.dy;
    var f = e.deltaY < 0 ? 1.2 : 1 / 1.2;
    view.scale *= f; view.dx -= mx * (f - 1); view.dy -= my * (f - 1); draw();
  }, { passive: false });
  window.addEventListener("resize", resize);
  resize();
})();
</script>
</body>
</html>
"""
