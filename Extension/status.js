"use strict";
// The toolbar's page: whether MIGA answers this browser, and when it does
// not, what to run. (The background marks the toolbar button "!" meanwhile.)

(async () => {
  const $ = (id) => document.getElementById(id);
  const { host, rules } = await ext.storage.local.get(["host", "rules"]);
  const count = rules?.sites?.length ?? 0;
  if (host?.ok) {
    $("state").textContent = count === 1 ? "MIGA answers here: 1 protected site pauses in this browser."
      : `MIGA answers here: ${count} protected sites pause in this browser.`;
    if (host.refused?.length) $("what").textContent = "This browser refused the rules of some of them: those pause only once a page of theirs has opened.";
    return;
  }
  $("state").textContent = "MIGA is not answering this browser.";
  $("what").textContent = (count ? `The ${count} sites it last gave still pause here, with the browser's own quotes. ` : "")
    + "In a terminal, run the command below (it lets this browser reach MIGA), then restart the browser.";
  $("command").hidden = false;
})();
