"use strict";
// The pause the browser holds on its own when the host is missing: the
// site's countdown from the last rules (90 seconds when they give none),
// a quote from the last ones or the bundled set, Exit / Deepen / Proceed.
// It speaks the host's shapes (`PauseState`, `ended`), so the page draws it the same.

const MigaLocalPause = (() => {
  const DEFAULT_SECONDS = 90;

  function create({ site, target, quotes, from }) {
    const name = site?.site ?? new URL(target).hostname;
    let length = from?.length > 0 ? from.length : site?.pause ?? DEFAULT_SECONDS;
    let quote = from?.quote ?? MigaQuotes.pick(quotes);
    let deadline = Date.now() + 1000 * (from ? Math.max(0, from.secondsLeft) : length);
    let deepenCount = from?.deepenCount ?? 0;
    let notice = null;
    const began = Date.now();

    const secondsLeft = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));

    function state() {
      return {
        header: "a pause before " + name,
        kind: "breathe",
        quote,
        length,
        secondsLeft: secondsLeft(),
        held: false,
        deepenCount,
        choices: ["exitToFocus", "deepen", "proceed"],
        proceedLabel: "Proceed to " + name,
        proceedOpen: secondsLeft() === 0,
        notice,
      };
    }

    // The outcome, as the queue keeps it for the host.
    function outcome(ending) {
      return {
        site: name, url: target, ending, deepenCount,
        at: new Date().toISOString(), waitedSeconds: Math.round((Date.now() - began) / 1000),
      };
    }

    // A choice's answer in the host's words: `state` or `ended`.
    function choose(choice) {
      notice = null;
      switch (choice) {
        case "exitToFocus":
          return { type: "ended", ending: "exitToFocus", outcome: outcome("exitToFocus") };
        case "deepen":
          deepenCount += 1;
          quote = MigaQuotes.pick(quotes, quote.id);
          deadline = Date.now() + 1000 * length;
          return { type: "state", state: state() };
        case "proceed":
          if (secondsLeft() === 0) return { type: "ended", ending: "proceed", open: target, outcome: outcome("proceed") };
          notice = "notYet";
          return { type: "state", state: state() };
        default:
          return { type: "state", state: state() };
      }
    }

    return { state, choose };
  }

  return { create };
})();
