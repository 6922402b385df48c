// "Match my papers": a picked file is read in the browser into the text area, which the form
// posts as plain text (nothing is uploaded beyond what the text area shows).
(function () {
  var input = document.getElementById("profile-file");
  var area = document.getElementById("profile-text");
  if (!input || !area) return;
  input.addEventListener("change", function () {
    var file = input.files && input.files[0];
    if (!file) return;
    if (file.size > 2000000) { input.value = ""; return; }
    var reader = new FileReader();
    reader.onload = function () { area.value = String(reader.result || ""); };
    reader.readAsText(file);
  });
})();
