"use strict";
// The pause page starts a pause only for a tab MIGA sent there: the
// redirect of a navigation the background saw go out (webRequest), or the
// background's own move of a tab. Each such sending is claimed once, by the
// page in that tab, for that address; a page any web page opened (or a
// second look at the same one) claims nothing, so it starts no pause and
// records nothing.

const MigaClaims = (() => {
  // How long a sending waits for its page; how long an address kept may be (the host takes no longer).
  const LONGEST_WAIT_MS = 120_000;
  const LONGEST_ADDRESS = 16 * 1024;

  // An address without its fragment: what a request carries.
  const request = (url) => String(url).split("#")[0];

  // One change at a time, in the order the events came: a page's claim
  // never overtakes the sending it claims.
  let chain = Promise.resolve();
  const inTurn = (work) => (chain = chain.then(work, work));

  // A tab's last few sendings: a page may claim its own after the tab has
  // already been sent on (a person quick on the keys, a redirect after it).
  const MOST_PER_TAB = 4;

  // Every tab's sendings still waiting for their page, the rest dropped.
  function fresh(claims) {
    const kept = {};
    for (const [tabId, sent] of Object.entries(claims)) {
      const recent = sent.filter((one) => Date.now() - one.at < LONGEST_WAIT_MS);
      if (recent.length) kept[tabId] = recent;
    }
    return kept;
  }

  function expect(tabId, url) {
    if (String(url).length > LONGEST_ADDRESS) return Promise.resolve();
    return inTurn(async () => {
      const claims = fresh((await ext.storage.session.get("claims")).claims ?? {});
      claims[tabId] = [...(claims[tabId] ?? []), { url: request(url), at: Date.now() }].slice(-MOST_PER_TAB);
      await ext.storage.session.set({ claims });
    });
  }

  // A tab closed: what it was sent is no one's.
  function forget(tabId) {
    return inTurn(async () => {
      const claims = fresh((await ext.storage.session.get("claims")).claims ?? {});
      delete claims[tabId];
      await ext.storage.session.set({ claims });
    });
  }

  // Whether `url` was sent to this tab lately; the sending is used up.
  function take(tabId, url) {
    return inTurn(async () => {
      const claims = fresh((await ext.storage.session.get("claims")).claims ?? {});
      const recent = claims[tabId] ?? [];
      const index = recent.findIndex((sent) => sent.url === request(url));
      if (index >= 0) recent.splice(index, 1);
      claims[tabId] = recent;
      await ext.storage.session.set({ claims });
      return index >= 0;
    });
  }

  // A page may ask before the sending is known here (the event of the
  // request that was redirected comes a moment later).
  const WAIT_FOR_SENDING_MS = 1500;

  // A pause page's claim: `{ok: false}` for a tab MIGA did not send; else
  // whether the address opens (no site covers it, which a redirect that
  // catches more than its site can send; or it is let through now), and
  // the site it pauses as.
  async function claim(message, tabId, sites) {
    const deadline = Date.now() + WAIT_FOR_SENDING_MS;
    while (!await take(tabId, message.url)) {
      if (Date.now() > deadline) return { ok: false };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const verdict = await MigaRules.verdict(message.url, tabId, sites);
    if (verdict.open) await MigaRules.inTurn(() => MigaRules.allowOnce(tabId, request(message.url)));
    return { ok: true, open: verdict.open, site: verdict.site };
  }

  // After a Proceed (or the host's "open"): the site let through for the
  // tab's visit, and in every tab until the allowance's end, the host's word.
  async function letThrough(message, tabId, sites) {
    const site = MigaRules.covering(message.url, sites);
    if (!site) return { ok: true };
    await MigaRules.allow(site, { tabId });
    if (Number.isFinite(message.allowedUntil) && message.allowedUntil > Date.now()) {
      await MigaRules.allow(site, { until: Math.min(message.allowedUntil, Date.now() + 24 * 3600_000) });
    }
    return { ok: true };
  }

  // What a pause page asks the background, from its own tab only.
  function answer(message, sender, sites) {
    if (typeof message?.url !== "string" || !sender.tab || sender.frameId !== 0) return { ok: false };
    switch (message.type) {
      case "claim": return claim(message, sender.tab.id, sites);
      case "let-through": return MigaRules.inTurn(() => letThrough(message, sender.tab.id, sites));
      default: return { ok: false };
    }
  }

  return { expect, forget, answer };
})();
