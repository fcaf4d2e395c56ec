import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGATestSupport

/// What MIGA learns from a real store: the kind the launch path chooses, over
/// many launches with a seeded generator, and the favourite the stats name,
/// per program and only where MIGA chooses.
@Suite struct KindsLearnedTests {
    let folder = TemporaryDirectory()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let utc = TimeZone(identifier: "UTC")!

    /// `exits` of `shown` pauses of `kind` for `program`, ended over the last days.
    func history(_ program: String, _ kind: PauseKind, shown: Int, exits: Int) -> [SessionRecord] {
        (0..<shown).map { index in
            let end = now.addingTimeInterval(-Double(index + 1) * 3000)
            return SessionRecord(id: "\(program)-\(kind)-\(index)", program: program, startedAt: end - 60, endedAt: end,
                                 outcome: index < exits ? .exit : .proceed, pausedSeconds: 60, kind: kind)
        }
    }

    func config(_ text: String) -> Config {
        let loaded = ConfigLoader.parse(text, file: "config.toml")
        #expect(loaded.problems.isEmpty)
        return loaded.config
    }

    /// Whether a launch seeks a favourite comes out as from the whole history
    /// (the stats' count), for a short history and one past `soughtFor`
    /// pauses a kind, which is counted without reading each pause; and a
    /// program whose kinds are not chosen by what works seeks none.
    @Test func a_launch_reads_only_the_pauses_that_decide_whether_a_favourite_is_sought() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        let kinds: [PauseKind] = [.type, .breathe]
        try store.insertMissing(history("steam", .type, shown: 20, exits: 10) + history("steam", .instead, shown: 20, exits: 5)
                                + history("discord", .type, shown: 150, exits: 60) + history("discord", .breathe, shown: 150, exits: 70)
                                + history("discord", .instead, shown: 30, exits: 10))
        for program in ["steam", "discord"] {
            let journal = try store.kindJournal(program: program, seekingAmong: kinds, now: now, timeZone: LocalZone(utc))
            let whole = try store.learnedPauses(program: program, now: now, timeZone: LocalZone(utc))
            #expect(journal.seekingFavourite == KindFavourite.isSought(after: whole, among: kinds))
            // Sought on the short history (no favourite yet); not past `soughtFor` pauses a kind.
            #expect(journal.seekingFavourite == (program == "steam"))
            #expect(try !store.kindJournal(program: program, now: now, timeZone: LocalZone(utc)).seekingFavourite)
        }
    }

    @Test func where_one_kind_clearly_wins_the_launch_path_chooses_it_most_and_the_others_still_sometimes() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        // Typed pauses end in an exit three times as often as the others.
        try store.insertMissing(history("discord", .type, shown: 40, exits: 24) + history("discord", .breathe, shown: 40, exits: 8)
                                + history("discord", .instead, shown: 40, exits: 8))
        let config = config("""
            [programs.discord]
            pause_kinds = ["breathe", "type", "instead"]
            """)
        let inUse = config.kindsInUse(for: config.settings(for: "discord")) { true }
        var generator = SeededGenerator(seed: 2026)
        var chosen: [PauseKind: Int] = [:]
        let launches = 300
        for index in 0..<launches {
            // The gateway's own call, one transaction per launch. Each pause stays open (its gateway,
            // this process, is still running), and open pauses count in no record: the history stays as seeded.
            let choice = try KindChooser.choose(among: inUse.kinds, rotation: inUse.rotation,
                                                journal: { try store.kindJournal(program: "discord", seekingAmong: inUse.kinds, now: now) },
                                                using: &generator)
            guard case .pause = try store.beginLaunch(
                GateFacts(now: now, front: .here), id: "launch-\(index)", program: "discord", owner: .current(), pool: ["a"],
                dayStart: now.addingTimeInterval(-3600), kind: choice.kind, using: &generator)
            else { Issue.record("no pause"); return }
            chosen[choice.kind, default: 0] += 1
        }
        let typed = chosen[.type] ?? 0
        #expect(typed > launches * 3 / 4, "\(chosen)")
        // The exploration floor: one choice in ten goes to any kind.
        #expect((chosen[.breathe] ?? 0) > 0 && (chosen[.instead] ?? 0) > 0, "\(chosen)")
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(report.kinds?.favourites == [KindTable.Favourite(program: "discord", name: "Discord", kind: .type)])
        let discord = try StatsReport.compute(from: store, filter: StatsFilter(program: "discord"), now: now, timeZone: LocalZone(utc),
                                              config: config) { true }
        #expect(discord.kinds?.favoured == .type)
        #expect(StatsScreen.lines(discord, width: 80).map(\.text).contains { $0.contains("  type ★") })
    }

    @Test func while_no_favourite_is_named_the_launch_path_gives_each_kind_its_share() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        // Typing 14 in 30 against breathing 6 in 30: ahead, so the ordinary learner would show it on most pauses,
        // but not yet certain enough for the stats to name it.
        try store.insertMissing(history("discord", .type, shown: 30, exits: 14) + history("discord", .breathe, shown: 30, exits: 6))
        let config = config("[programs.discord]\npause_kinds = [\"breathe\", \"type\"]\n")
        let inUse = config.kindsInUse(for: config.settings(for: "discord")) { true }
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(report.kinds?.favourites == [])
        var generator = SeededGenerator(seed: 41)
        let launches = 400
        var typed = 0
        for index in 0..<launches {
            // The gateway's own call; each pause stays open, so the history stays as seeded.
            let choice = try KindChooser.choose(among: inUse.kinds, rotation: inUse.rotation,
                                                journal: { try store.kindJournal(program: "discord", seekingAmong: inUse.kinds, now: now,
                                                                                 timeZone: LocalZone(utc)) },
                                                using: &generator)
            guard case .pause = try store.beginLaunch(
                GateFacts(now: now, front: .here), id: "launch-\(index)", program: "discord", owner: .current(), pool: ["a"],
                dayStart: now.addingTimeInterval(-3600), kind: choice.kind, using: &generator)
            else { Issue.record("no pause"); return }
            typed += choice.kind == .type ? 1 : 0
        }
        #expect(typed > launches * 2 / 5 && typed < launches * 3 / 5, "type chosen \(typed) times of \(launches)")
        // The ordinary learner, from the same evidence, shows typing on nine pauses in ten.
        let journal = try store.kindJournal(program: "discord", now: now, timeZone: LocalZone(utc))
        let ordinary = (0..<launches).filter { _ in
            KindChooser.choose(among: inUse.kinds, rotation: .adaptive, evidence: journal.evidence, last: nil, using: &generator).kind == .type
        }.count
        #expect(ordinary > launches * 4 / 5, "type chosen \(ordinary) times of \(launches) by the ordinary learner")
    }

    @Test func a_favourite_is_named_per_program_and_only_where_miga_chooses_among_kinds_shown() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        // Discord chooses between breathe and type: type wins there. Steam breathes only (no
        // choice), though typed pauses of its own from before did well; Slack cycles.
        // Spotify may choose, but none of its kinds has been shown.
        try store.insertMissing(history("discord", .type, shown: 40, exits: 24) + history("discord", .breathe, shown: 40, exits: 8)
                                + history("steam", .breathe, shown: 30, exits: 3) + history("steam", .type, shown: 20, exits: 19)
                                + history("slack", .breathe, shown: 10, exits: 1) + history("slack", .type, shown: 10, exits: 9))
        let config = config("""
            [programs.discord]
            pause_kinds = ["breathe", "type"]

            [programs.steam]

            [programs.slack]
            pause_kinds = ["breathe", "type"]
            rotate = "cycle"

            [programs.spotify]
            pause_kinds = ["intention", "instead"]
            """)
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        let kinds = try #require(report.kinds)
        #expect(kinds.favourites == [KindTable.Favourite(program: "discord", name: "Discord", kind: .type)])
        #expect(kinds.favoured == nil)
        let text = StatsScreen.lines(report, width: 80).map(\.text)
        #expect(text.contains { $0.contains("MIGA now favours a typed pause for Discord") })
        #expect(!text.contains { $0.contains("★") })
        // Under --program: the program's own table, its favourite starred, or none.
        for (program, favoured) in [("discord", PauseKind.type), ("steam", nil), ("slack", nil), ("spotify", nil)] as [(String, PauseKind?)] {
            let one = try StatsReport.compute(from: store, filter: StatsFilter(program: program), now: now, timeZone: LocalZone(utc), config: config) { true }
            #expect(one.kinds?.favoured == favoured, "\(program)")
        }
        // The same in --json.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(now: now, timeZone: LocalZone(utc)).utf8)) as? [String: Any])
        let table = try #require(json["kinds"] as? [String: Any])
        #expect(table["favoured"] is NSNull)
        #expect((table["favourites"] as? [[String: String]]) == [["program": "discord", "kind": "type"]])
    }

    @Test func after_a_change_an_old_lead_names_nothing_while_the_learner_moves_on_and_a_reset_names_the_new_one() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        // Months ago breathing worked for Discord (135 exits in 150); in the last
        // weeks a typed pause has (22 in 30) and breathing has not (5 in 30).
        let old = history("discord", .breathe, shown: 150, exits: 135).map { record in
            var record = record
            record.id = "months-ago-" + record.id
            record.startedAt -= 120 * 86_400
            record.endedAt = record.endedAt.map { $0 - 120 * 86_400 }
            return record
        }
        try store.insertMissing(old + history("discord", .breathe, shown: 30, exits: 5) + history("discord", .type, shown: 30, exits: 22))
        let config = config("[programs.discord]\npause_kinds = [\"breathe\", \"type\"]\n")
        // Counted alike, breathing (140 in 180) and typing (22 in 30) are too close to name either.
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(report.kinds?.favourites == [])
        // The learner, weighing old pauses least and past seeking a favourite (210 pauses), already shows typing on most.
        var generator = SeededGenerator(seed: 3)
        let journal = try store.kindJournal(program: "discord", seekingAmong: [.breathe, .type], now: now, timeZone: LocalZone(utc))
        #expect(!journal.seekingFavourite)
        let typed = (0..<400).filter { _ in
            KindChooser.choose(among: [.breathe, .type], rotation: .adaptive, journal: { journal }, using: &generator).kind == .type
        }.count
        #expect(typed > 300, "the learner shows type on \(typed) of 400 pauses")
        // Started afresh before the last weeks: those alone count, and typing is named.
        try store.resetLearning(program: "discord", at: now.addingTimeInterval(-3 * 86_400))
        let afresh = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(afresh.kinds?.favourites == [KindTable.Favourite(program: "discord", name: "Discord", kind: .type)])
    }

    @Test func a_kind_that_can_be_shown_but_has_too_few_pauses_is_not_yet_known_and_no_favourite_is_named_against_it() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        // Ten typed pauses, every one an exit that held; breathing, in use too, never shown.
        try store.insertMissing(history("discord", .type, shown: 10, exits: 10))
        let config = config("[programs.discord]\npause_kinds = [\"breathe\", \"type\"]\n")
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(report.kinds?.favourites == [])
        // One breathing pause is not enough to know it either.
        try store.insertMissing(history("discord", .breathe, shown: 1, exits: 0))
        let again = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(again.kinds?.favourites == [])
    }

    @Test func the_table_counts_the_exits_that_held_as_the_learner_does_with_every_exit_beside_them() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        // Every typed pause ended in an exit, and each time Discord was opened again five minutes later:
        // no success for the learner. Breathing ended in an exit 8 times in 20, and those held.
        let relaunches = (0..<20).map { index in
            let at = now.addingTimeInterval(-Double(index + 1) * 3000 + 300 - 86_400)
            return SessionRecord(id: "again-\(index)", program: "discord", startedAt: at, endedAt: at, outcome: .passthrough,
                                 pausedSeconds: 0)
        }
        let typed = history("discord", .type, shown: 20, exits: 20).map { record in
            var record = record
            record.startedAt -= 86_400
            record.endedAt = record.endedAt.map { $0 - 86_400 }
            return record
        }
        try store.insertMissing(typed + relaunches + history("discord", .breathe, shown: 20, exits: 8))
        let config = config("[programs.discord]\npause_kinds = [\"breathe\", \"type\"]\n")
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        let text = StatsScreen.lines(report, width: 80).map(\.text)
        let typeRow = try #require(text.first { $0.hasPrefix("    type") }, "\(text)")
        let breatheRow = try #require(text.first { $0.hasPrefix("    breathe") }, "\(text)")
        // The learner's figure first (held, and the rate from it), every exit beside it, and a line that says which is which.
        #expect(typeRow.split(separator: " ").prefix(5) == ["type", "20", "0", "0", "%"], "\(typeRow)")
        #expect(typeRow.hasSuffix(" 20"), "\(typeRow)")
        #expect(breatheRow.split(separator: " ").prefix(5) == ["breathe", "20", "8", "40", "%"], "\(breatheRow)")
        #expect(text.contains { $0.contains("held") && $0.contains("exits") && $0.contains("MIGA learns from") }, "\(text)")
        // And in --json, beside the keys that were there before.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(now: now, timeZone: LocalZone(utc)).utf8)) as? [String: Any])
        let rows = try #require((json["kinds"] as? [String: Any])?["rows"] as? [[String: Any]])
        let type = try #require(rows.first { $0["kind"] as? String == "type" })
        #expect(type["exits"] as? Int == 20 && type["exit_rate"] as? Double == 1)
        #expect(type["held_exits"] as? Int == 0 && type["held_rate"] as? Double == 0, "\(type)")
        #expect(type["held_interval_low"] is Double && type["held_interval_high"] is Double, "\(type)")
    }

    @Test func the_kinds_and_the_effect_say_they_cover_all_time_when_days_or_device_narrow_the_rest() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing(history("discord", .type, shown: 10, exits: 6) + history("discord", .breathe, shown: 10, exits: 2))
        let config = config("[programs.discord]\npause_kinds = [\"breathe\", \"type\"]\n")
        let note = "The effect and the kinds of pause cover all time on every device"
        for filter in [StatsFilter(days: 7), StatsFilter(device: "")] {
            let report = try StatsReport.compute(from: store, filter: filter, now: now, timeZone: LocalZone(utc), config: config) { true }
            let text = StatsScreen.lines(report, width: 80).map(\.text).joined(separator: "\n")
            #expect(text.contains("Kinds of pause") && text.contains(note), "\(text)")
        }
        let whole = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(!StatsScreen.lines(whole, width: 80).map(\.text).joined().contains(note))
    }

    @Test func the_learners_half_life_is_read_per_program_and_a_bad_one_is_reported() throws {
        let loaded = ConfigLoader.parse("""
            [programs.discord]
            learn_half_life_days = 7

            [programs.steam]
            learn_half_life_days = 0
            """, file: "config.toml")
        #expect(loaded.config.kindsInUse(for: loaded.config.settings(for: "discord")) { true }.halfLifeDays == 7)
        #expect(loaded.config.kindsInUse(for: loaded.config.settings(for: "steam")) { true }.halfLifeDays
                == KindEvidence.defaultHalfLifeDays)
        #expect(loaded.problems.map(\.description).contains { $0.contains("learn_half_life_days") && $0.contains("from 1 to 3650") },
                "\(loaded.problems)")
    }

    @Test func a_protected_site_has_its_favourite_named_beside_the_programs() throws {
        let store = try SessionStore(path: folder.path + "/miga.sqlite")
        try store.insertMissing(history("site:youtube.com", .type, shown: 40, exits: 24)
                                + history("site:youtube.com", .breathe, shown: 40, exits: 8))
        let config = config("""
            [sites."youtube.com"]
            pause_kinds = ["breathe", "type"]
            """)
        let report = try StatsReport.compute(from: store, now: now, timeZone: LocalZone(utc), config: config) { true }
        #expect(report.kinds?.favourites == [KindTable.Favourite(program: "site:youtube.com", name: "youtube.com", kind: .type)])
        #expect(StatsScreen.lines(report, width: 80).map(\.text).contains { $0.contains("MIGA now favours a typed pause for youtube.com") })
    }
}
