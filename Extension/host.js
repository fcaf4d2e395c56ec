"use strict";
// Conversations with `miga native-host` over native messaging (docs/SITES.md):
// a pause page's, one request and its answer at a time; and the
// background's, which watches the rules, the host sending them again each
// time they change. Every message is an object with a `type`; whatever
// the host says is data, never markup.

const MigaHost = (() => {
  const NAME = "miga";
  const ANSWER_CEILING_MS = 15000;

  // A port that answers each request with the host's next message, or null
  // once the host is gone (never installed, failed, or quit).
  function open() {
    let port = null;
    let gone = false;
    const waiting = [];
    const listeners = { gone: [] };
    const finish = () => {
      if (gone) return;
      gone = true;
      while (waiting.length) waiting.shift()(null);
      listeners.gone.forEach((listener) => listener());
    };
    try {
      port = ext.runtime.connectNative(NAME);
      port.onMessage.addListener((message) => {
        const next = waiting.shift();
        if (next) next(message && typeof message === "object" ? message : null);
      });
      port.onDisconnect.addListener(() => {
        // Reading lastError keeps Chromium from logging it as unchecked.
        void (ext.runtime.lastError);
        finish();
      });
    } catch (error) {
      finish();
    }

    return {
      get gone() { return gone; },
      onGone(listener) { if (gone) listener(); else listeners.gone.push(listener); },
      request(message) {
        if (gone) return Promise.resolve(null);
        return new Promise((resolve) => {
          const timer = setTimeout(() => { close(); }, ANSWER_CEILING_MS);
          waiting.push((answer) => { clearTimeout(timer); resolve(answer); });
          try { port.postMessage(message); } catch (error) { finish(); }
        });
      },
      close,
    };

    function close() {
      try { if (port) port.disconnect(); } catch (error) { /* already gone */ }
      finish();
    }
  }

  // Whether the person lets the extension run in private windows (an opt-in
  // of theirs in both browsers): the host keeps it for `miga doctor`. Null
  // when the browser cannot say.
  async function privateWindows() {
    try {
      return Boolean(await ext.extension.isAllowedIncognitoAccess());
    } catch (error) {
      return null;
    }
  }

  // Which browser this is, as MIGA names it (KnownBrowser.id).
  function browserName() {
    if (ext.runtime.getBrowserInfo) return "firefox";
    if (globalThis.navigator?.brave) return "brave";
    const brands = globalThis.navigator?.userAgentData?.brands ?? [];
    return brands.some((brand) => brand.brand === "Google Chrome") ? "google-chrome" : "chromium";
  }

  // The background's conversation: the rules now and at each change, each
  // handed to `onRules` (which puts them in place and resolves); the host
  // is told once they are. `onError` is called when the host answers but
  // gives no rules (a config it cannot read), `onGone` when it cannot be
  // reached or goes away, with the browser's reason.
  function watch({ onRules, onError, onGone }) {
    let port;
    try {
      port = ext.runtime.connectNative(NAME);
    } catch (error) {
      onGone(String(error?.message ?? error));
      return null;
    }
    let queue = Promise.resolve();
    port.onMessage.addListener((message) => {
      if (message?.type === "error") onError();
      if (!message || message.type !== "rules") return;
      queue = queue.then(() => onRules(message)).then(() => {
        try { port.postMessage({ type: "applied", generation: message.generation }); } catch (error) { /* gone */ }
      }, () => {});
    });
    port.onDisconnect.addListener(() => {
      onGone(String(ext.runtime.lastError?.message ?? port.error?.message ?? "MIGA's host ended the conversation"));
    });
    privateWindows().then((allowed) => {
      try { port.postMessage({ type: "watch", privateWindows: allowed, browser: browserName() }); } catch (error) { /* gone */ }
    });
    return port;
  }

  // The outcomes of pauses shown without the host, kept until the host has recorded them.
  async function queue(item) {
    const { queued = [] } = await ext.storage.local.get("queued");
    queued.push(item);
    await ext.storage.local.set({ queued: queued.slice(-500) });
  }

  // Hands the queued outcomes to the host on `host`, once it is there; the
  // items it took leave the queue, each by what it is (another page may be
  // handing over the same ones, or queueing more, meanwhile).
  async function handOver(host) {
    const { queued = [] } = await ext.storage.local.get("queued");
    if (!queued.length) return;
    const recorded = await host.request({ type: "outcomes", items: queued });
    if (recorded && recorded.type === "recorded") {
      const sent = new Set(queued.map((item) => JSON.stringify(item)));
      const { queued: now = [] } = await ext.storage.local.get("queued");
      await ext.storage.local.set({ queued: now.filter((item) => !sent.has(JSON.stringify(item))) });
    }
  }

  return { open, watch, queue, handOver };
})();
