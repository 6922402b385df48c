// The ask page: when the server has a model, its answer streams in from /ask/stream
// (server-sent events). Everything written here goes through textContent; citations become
// links to the papers listed under "sources" (numbers the sources do not hold stay text).
(function () {
  "use strict";
  var box = document.getElementById("generated");
  if (!box || !box.dataset.stream || !window.EventSource) return;
  var text = document.getElementById("generated-text");
  var status = document.getElementById("generated-status");
  var notes = document.getElementById("generated-notes");
  var sources = {};
  document.querySelectorAll("#sources li[data-n]").forEach(function (li) {
    sources[li.dataset.n] = { id: li.dataset.id, title: li.dataset.title };
  });

  function render(into, body) {
    into.textContent = "";
    body.split(/\n{2,}/).forEach(function (para) {
      var p = document.createElement("p"), at = 0, re = /\[(\d{1,3})\]/g, m;
      while ((m = re.exec(para)) !== null) {
        var src = sources[m[1]];
        if (!src) continue;
        p.appendChild(document.createTextNode(para.slice(at, m.index)));
        var a = document.createElement("a");
        a.className = "cite";
        a.href = "/paper/" + encodeURIComponent(src.id);
        a.title = src.title;
        a.textContent = m[0];
        p.appendChild(a);
        at = m.index + m[0].length;
      }
      p.appendChild(document.createTextNode(para.slice(at)));
      into.appendChild(p);
    });
  }

  var streamed = "";
  box.hidden = false;
  var events = new EventSource(box.dataset.stream);
  events.addEventListener("token", function (ev) {
    streamed += JSON.parse(ev.data).text;
    text.textContent = streamed;
  });
  var say = box.dataset;
  events.addEventListener("answer", function (ev) {
    events.close();
    var answer = JSON.parse(ev.data);
    if (answer.mode === "generated") {
      render(text, answer.answer.split("\n\n").slice(1).join("\n\n"));  // the summary line is shown above
      status.textContent = say.writtenBy.replace("{model}", answer.model);
      var said = [];
      if (answer.removed.length) said.push(say.removed + " " + answer.removed.join("; "));
      if (answer.uncited.length) said.push(say.uncited + " " + answer.uncited.join("; "));
      notes.textContent = said.join(" · ");
      box.classList.add("done");
    } else {
      text.textContent = "";
      status.textContent = say.failed.replace("{reason}", answer.fallback || "");
      box.classList.add("failed");
    }
  });
  events.onerror = function () {
    if (box.classList.contains("done") || box.classList.contains("failed")) return;
    events.close();
    status.textContent = say.broke;
    box.classList.add("failed");
  };
})();
