import Foundation
@testable import MIGACore
@testable import MIGAStore

/// A small history written through every way the store writes a value: a
/// pause begun, brought up to date and ended, an allowance, a killed pause
/// settled, the inbox's pass-throughs, endings and early stops folded in,
/// sessions synced from another machine, switch-offs, the learner's resets
/// and declines, leaks, and the key-value table. The same calls, the same
/// values: what they leave in the file is the store's format on disk.
enum EveryWrite {
    static let start = Date(timeIntervalSince1970: 1_800_000_000.1234)
    static let pool = ["zen-001", "zen-002", "zen-003"]
    /// A gateway on another boot: never running, so its open row is settled as abandoned.
    static let goneOwner = ProcessIdentity(bootID: "gone-boot", pid: 4242, startTicks: 99)

    static func write(storeAt path: String) throws {
        try writeSessions(storeAt: path)
        try dropIntoInbox(besideStoreAt: path)
        // Opening folds the inbox in.
        let store = try SessionStore(path: path)
        try writeTheRest(store)
    }

    private static func writeSessions(storeAt path: String) throws {
        let store = try SessionStore(path: path)
        var generator = SeededGenerator(seed: 7)
        _ = try store.deviceID()
        try store.setMeta("look_back", "7")
        _ = try store.claim("weekly", upTo: 3)
        _ = try store.drawQuote(from: pool, using: &generator)

        _ = try store.beginLaunch(GateFacts(now: start, front: .here), id: "killed", program: "discord",
                                  owner: goneOwner, pool: pool, dayStart: start, using: &generator)
        try store.recordProgress(sessionID: "killed", PauseProgress(pausedSeconds: 3.25, deepenCount: 0, quotes: ["zen-001"]))

        // The next launch settles the killed one first.
        _ = try store.beginLaunch(GateFacts(now: start + 10, front: .here, allowance: 600), id: "exited", program: "firefox",
                                  owner: .current(), pool: pool, dayStart: start, kind: .type, using: &generator)
        try store.recordProgress(sessionID: "exited", PauseProgress(pausedSeconds: 5.5, deepenCount: 1, quotes: ["zen-002"],
                                                                    kind: .type, typed: false))
        try store.completeSession(sessionID: "exited", outcome: .exit, endedAt: start + 22.5,
                                  PauseProgress(pausedSeconds: 12.5, deepenCount: 1, quotes: ["zen-002", "zen-003"],
                                                kind: .type, typed: true, alternative: "a walk"))

        _ = try store.beginLaunch(GateFacts(now: start + 30, front: .here), id: "proceeded", program: "steam",
                                  owner: .current(), pool: pool, dayStart: start, kind: .intention, using: &generator)
        try store.completeSession(sessionID: "proceeded", outcome: .proceed, endedAt: start + 61.001,
                                  PauseProgress(pausedSeconds: 31.001, deepenCount: 0, quotes: [], kind: .intention),
                                  intention: "one match — ünïcode ✓ 'quoted'")
        try store.recordEarlyStop(sessionID: "proceeded", EarlyStop(words: "exited with status 1"))
        var allowed = GateFacts(now: start + 90, front: .elsewhere(window: .untried), withoutTerminal: .deny, allowance: 600)
        _ = try store.decide(&allowed, id: "allowed", program: "steam")

        _ = try store.beginLaunch(GateFacts(now: start + 100, front: .here), id: "gave-way", program: "code",
                                  owner: .current(), pool: pool, dayStart: start, kind: .instead, using: &generator)
        try store.completeSession(sessionID: "gave-way", outcome: .passthrough, endedAt: start + 104,
                                  PauseProgress(pausedSeconds: 4, deepenCount: 0, quotes: ["zen-001"], kind: .instead),
                                  reason: .allowed)
    }

    private static func dropIntoInbox(besideStoreAt path: String) throws {
        let inbox = Inbox(besideStoreAt: path)
        try inbox.dropPassThrough(id: "outside", program: "code", at: start + 120, reason: .outsideHours)
        try inbox.dropPassThrough(id: "bare", program: "code", at: start + 121)
        try inbox.dropEnding(InboxEnding(id: "ended-late", program: "chromium", startedAt: start + 130, outcome: .exit,
                                         endedAt: start + 170.75,
                                         PauseProgress(pausedSeconds: 40.75, deepenCount: 3, quotes: ["zen-003", "zen-001"],
                                                       kind: .instead, alternative: "tea"),
                                         intention: nil, reason: nil))
        try inbox.dropEnding(InboxEnding(id: "proceeded-late", program: "chromium", startedAt: start + 180, outcome: .proceed,
                                         endedAt: start + 200, PauseProgress(pausedSeconds: 20, deepenCount: 0, quotes: [],
                                                                             kind: .type, typed: false),
                                         intention: "mail", reason: nil))
        try inbox.dropEarlyStop(sessionID: "proceeded-late", EarlyStop(words: "killed by signal 9"))
    }

    private static func writeTheRest(_ store: SessionStore) throws {
        let other = "0b7e5a0c-1f2d-4c3b-9a8e-7d6c5b4a3f21"
        try store.insertMissing([
            SessionRecord(id: "synced", program: "firefox", startedAt: start + 300, endedAt: start + 330, outcome: .exit,
                          pausedSeconds: 30, deepenCount: 2, quotes: ["zen-003"], device: other,
                          // SQLite is given a string up to its first NUL.
                          intention: "before\u{0}after", kind: .breathe, typed: true),
            SessionRecord(id: "imported", program: "steam", startedAt: start + 400, endedAt: start + 400.5, outcome: .proceed,
                          pausedSeconds: 0.5, device: other, origin: "5f2e-origin", intention: "a look",
                          kind: .type, typed: false, stoppedAtOnce: "no window"),
            SessionRecord(id: "old-pass", program: "code", startedAt: start + 500, endedAt: start + 500, outcome: .passthrough,
                          device: other, reason: .autostart),
        ])
        try store.record(ProtectionChange(id: "change-1", at: start + 600, action: .unprotect, subjects: ["firefox", "steam"],
                                          outcome: .done))
        try store.record(ProtectionChange(id: "change-2", at: start + 601, action: .uninstall, subjects: [], outcome: .kept))
        try store.resetLearning(program: "firefox", at: start + 700)
        try store.declineKind(.type, program: "steam", at: start + 701)
        try store.recordLeaks([
            Leak(program: "firefox", process: ProcessIdentity(bootID: "b00t", pid: 42, startTicks: 7), route: .login("/usr/bin/firefox --new")),
            Leak(program: "steam", process: ProcessIdentity(bootID: "b00t", pid: 43, startTicks: 8), route: .unknown),
        ], at: start + 800)
    }
}
