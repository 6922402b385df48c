// Render LaTeX in elements with class "math" (paper titles and abstracts) with the local
// KaTeX copy. auto-render works on text nodes only, so no list text is parsed as HTML; KaTeX's
// `trust` stays off, so \href and friends cannot produce links.
(function () {
  "use strict";
  function render() {
    if (typeof renderMathInElement !== "function") return;
    document.querySelectorAll(".math").forEach(function (el) {
      renderMathInElement(el, {
        delimiters: [
          { left: "$$", right: "$$", display: true },
          { left: "\\[", right: "\\]", display: true },
          { left: "\\(", right: "\\)", display: false },
          { left: "$", right: "$", display: false }
        ],
        throwOnError: false,
        trust: false,
        strict: "ignore"
      });
    });
    document.body.dataset.math = "done";
  }
  if (document.readyState === "complete") render(); else window.addEventListener("load", render);
})();
