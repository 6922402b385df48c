// paperscope progressive enhancements: search as you type, and the tag / star / read / note
// controls. List text is never turned into markup here: result lists come from the server
// already escaped, and everything this script writes itself goes through textContent.
(function () {
  "use strict";

  // ------------------------------------------------------------------ search as you type
  var live = document.querySelector("input[data-live]");
  if (live) {
    var form = live.form, results = document.getElementById("results");
    var timer = null, controller = null, seq = 0;
    var run = function () {
      var params = new URLSearchParams(new FormData(form));
      for (var key of Array.from(params.keys())) if (!params.get(key)) params.delete(key);
      var query = params.toString();
      if (controller) controller.abort();
      controller = new AbortController();
      var mine = ++seq;
      results.setAttribute("aria-busy", "true");
      fetch(live.dataset.live + "?" + query, { signal: controller.signal, headers: { "Accept": "text/html" } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          if (mine !== seq) return;
          results.innerHTML = html;  // server-rendered, autoescaped fragment
          results.removeAttribute("aria-busy");
          history.replaceState(null, "", "/search" + (query ? "?" + query : ""));
        })
        .catch(function () { if (mine === seq) results.removeAttribute("aria-busy"); });
    };
    var later = function () { clearTimeout(timer); timer = setTimeout(run, 250); };
    live.addEventListener("input", later);
    form.querySelectorAll("select, input[type=checkbox]").forEach(function (el) { el.addEventListener("change", later); });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); clearTimeout(timer); run(); });
  }

  // ------------------------------------------------------------------ personal marks
  function send(method, url, body) {
    return fetch(url, { method: method, headers: { "Content-Type": "application/json" },
                        body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin" })
      .then(function (r) {
        return r.json().then(function (data) { return r.ok ? data : Promise.reject(data.error || r.status); });
      });
  }
  function paperOf(el) { var box = el.closest("[data-id]"); return box ? box.dataset.id : null; }
  function api(id, tail) { return "/api/papers/" + encodeURIComponent(id) + tail; }
  function toggle(button, on, symOn, symOff) {
    button.dataset.on = on ? "yes" : "no";
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.querySelector(".sym").textContent = on ? symOn : symOff;
  }
  function showTags(box, tags) {
    var meta = box.querySelector(".tags-line") || box.querySelector(".meta");
    if (!meta) return;
    var removable = meta.classList.contains("tags-line");
    meta.querySelectorAll(":scope > a.tag, :scope > .untag").forEach(function (el) { el.remove(); });
    tags.forEach(function (tag) {
      var a = document.createElement("a"), before = meta.querySelector(":scope > .actions");
      a.className = "tag";
      a.href = "/library?tag=" + encodeURIComponent(tag);
      a.textContent = tag;
      meta.insertBefore(a, before);
      if (removable) {
        var x = document.createElement("button");
        x.type = "button"; x.className = "js-untag untag"; x.dataset.tag = tag; x.textContent = "×";
        meta.insertBefore(x, before);
      }
    });
  }
  function fail(el, message) {
    var note = document.createElement("span");
    note.className = "error small";
    note.textContent = " " + message;
    el.after(note);
    setTimeout(function () { note.remove(); }, 4000);
  }

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest("button");
    if (!button) return;
    var id = paperOf(button);
    if (!id) return;
    if (button.classList.contains("js-star")) {
      var star = button.dataset.on !== "yes";
      send("PUT", api(id, "/star"), { starred: star })
        .then(function () { toggle(button, star, "★", "☆"); }, function (e) { fail(button, e); });
    } else if (button.classList.contains("js-read")) {
      var read = button.dataset.on !== "yes";
      send("PUT", api(id, "/read"), { read: read })
        .then(function () { toggle(button, read, "✓", "○"); }, function (e) { fail(button, e); });
    } else if (button.classList.contains("js-note")) {
      var text = document.getElementById("note").value;
      var status = button.parentElement.querySelector(".note-status");
      send("PUT", api(id, "/note"), { note: text })
        .then(function () { status.textContent = status.dataset.saved; }, function (e) { fail(button, e); });
    } else if (button.classList.contains("js-untag")) {
      send("DELETE", api(id, "/tags/" + encodeURIComponent(button.dataset.tag)))
        .then(function (paper) { showTags(button.closest("[data-id]"), paper.tags || []); }, function (e) { fail(button, e); });
    } else if (button.classList.contains("js-dismiss")) {
      var box = button.closest("[data-id]"), list = button.closest("[data-tag]");
      send("PUT", api(id, "/irrelevant"), { irrelevant: true, tag: list ? list.dataset.tag : null })
        .then(function () { box.remove(); }, function (e) { fail(button, e); });
    } else if (button.classList.contains("js-tag")) {
      if (button.nextElementSibling && button.nextElementSibling.classList.contains("tag-input")) {
        button.nextElementSibling.focus();
        return;
      }
      var input = document.createElement("input");
      input.type = "text";
      input.className = "tag-input";
      input.maxLength = 80;
      input.placeholder = button.dataset.placeholder || "tag";
      button.after(input);
      input.focus();
      input.addEventListener("keydown", function (kev) {
        if (kev.key === "Escape") { input.remove(); return; }
        if (kev.key !== "Enter" || !input.value.trim()) return;
        kev.preventDefault();
        send("POST", api(id, "/tags"), { tags: [input.value.trim()] })
          .then(function (paper) { showTags(button.closest("[data-id]"), paper.tags || []); input.remove(); },
                function (e) { fail(input, e); });
      });
    }
  });
})();
