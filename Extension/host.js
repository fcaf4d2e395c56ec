"use strict";
// A conversation with `miga native-host` over native messaging: one port,
// one host process. Every message in and out is an object with a `type`
// (docs/SITES.md). Whatever the host says is data, never markup.

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

  // The outcomes of pauses shown without the host, kept until the host has recorded them.
  async function queue(item) {
    const { queued = [] } = await ext.storage.local.get("queued");
    queued.push(item);
    await ext.storage.local.set({ queued: queued.slice(-500) });
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

  // Asks for the rules (and caches them, with the redirects made to match),
  // then hands over any queued outcomes. Returns the sites, or null without a host.
  async function refresh() {
    const host = open();
    try {
      const answer = await host.request({ type: "rules", privateWindows: await privateWindows() });
      const sites = MigaRules.sitesFrom(answer);
      if (!sites) return null;
      await ext.storage.local.set({ rules: { sites, quotes: MigaQuotes.from(answer.quotes) } });
      await MigaRules.replaceRedirects(sites);
      const { queued = [] } = await ext.storage.local.get("queued");
      if (queued.length) {
        const recorded = await host.request({ type: "outcomes", items: queued });
        if (recorded && recorded.type === "recorded") {
          const { queued: now = [] } = await ext.storage.local.get("queued");
          await ext.storage.local.set({ queued: now.slice(queued.length) });
        }
      }
      return sites;
    } finally {
      host.close();
    }
  }

  return { open, queue, refresh };
})();
