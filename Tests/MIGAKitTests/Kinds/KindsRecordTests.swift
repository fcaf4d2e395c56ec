import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAStore
@testable import MIGAConfig
@testable import MIGATestSupport

/// The kinds in the store, the files and the config: each pause's kind,
/// typed line and alternative written and read back, carried by export,
/// import and sync (old files still import), and the settings checked.
@Suite struct KindsRecordTests {
    let folder = TemporaryDirectory()
    var path: String { folder.path + "/miga.sqlite" }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func begin(_ store: SessionStore, _ id: String, kinds: [PauseKind], rotation: Rotation, seed: UInt64 = 1) throws -> KindChoice? {
        var generator = SeededGenerator(seed: seed)
        let choice = try KindChooser.choose(among: kinds, rotation: rotation,
                                            journal: { try store.kindJournal(program: "discord", seekingAmong: rotation == .adaptive ? kinds : nil,
                                                                             now: now) }, using: &generator)
        guard case .pause = try store.beginLaunch(
            GateFacts(now: now, front: .here), id: id, program: "discord", owner: .current(), pool: ["a"],
            dayStart: now.addingTimeInterval(-3600), kind: choice.kind, using: &generator) else { return nil }
        return choice
    }

    @Test func each_pause_keeps_its_kind_and_cycle_takes_them_in_turn() throws {
        let store = try SessionStore(path: path)
        let first = try #require(try begin(store, "s1", kinds: [.breathe, .type], rotation: .cycle))
        #expect(first.kind == .breathe)
        try store.completeSession(sessionID: "s1", outcome: .exit, endedAt: now, PauseProgress(pausedSeconds: 3, deepenCount: 0, quotes: ["a"], kind: .breathe))
        let second = try #require(try begin(store, "s2", kinds: [.breathe, .type], rotation: .cycle))
        #expect(second.kind == .type)
        #expect(second.why == "A typed pause this time: MIGA takes the kinds you chose in turn")
        try store.completeSession(sessionID: "s2", outcome: .proceed, endedAt: now,
                                  PauseProgress(pausedSeconds: 9, deepenCount: 0, quotes: ["a"], kind: .type, typed: true))
        let rows = try store.sessions()
        #expect(rows.map(\.kind) == [.breathe, .type])
        #expect(rows.map(\.typed) == [nil, true])
        #expect(try store.kindRecords(program: "discord") == [.breathe: KindRecord(shown: 1, exits: 1), .type: KindRecord(shown: 1, exits: 0)])
        // The open row carries its kind from the start, so a killed gateway's pause keeps it.
        _ = try begin(store, "s3", kinds: [.breathe, .type], rotation: .cycle)
        #expect(try store.sessions().last?.kind == .breathe)
    }

    @Test func an_alternative_is_an_exit_recorded_with_it_and_an_ending_in_the_inbox_keeps_it_all() throws {
        let store = try SessionStore(path: path)
        try Inbox(besideStoreAt: path).dropEnding(InboxEnding(
            id: "late", program: "discord", startedAt: now, outcome: .exit, endedAt: now.addingTimeInterval(20),
            PauseProgress(pausedSeconds: 20, deepenCount: 0, quotes: ["a"], kind: .instead, alternative: "read ten pages"),
            intention: nil, reason: nil))
        let reopened = try SessionStore(path: path)
        _ = store
        let row = try #require(try reopened.sessions().first)
        #expect(row.kind == .instead && row.alternative == "read ten pages" && row.outcome == .exit)
    }

    @Test func a_pause_that_gave_way_to_an_allowance_is_a_pass_through_without_a_kind_and_exports_cleanly() throws {
        let store = try SessionStore(path: path)
        _ = try begin(store, "y", kinds: [.type, .breathe], rotation: .off)
        try store.completeSession(sessionID: "y", outcome: .passthrough, endedAt: now + 5,
                                  PauseProgress(pausedSeconds: 5, deepenCount: 0, quotes: ["a"], kind: nil, typed: nil), reason: .allowed)
        try Inbox(besideStoreAt: path).dropEnding(InboxEnding(
            id: "z", program: "discord", startedAt: now, outcome: .passthrough, endedAt: now + 6,
            PauseProgress(pausedSeconds: 6, deepenCount: 0, quotes: [], kind: .type), intention: nil, reason: .allowed))
        let rows = try SessionStore(path: path).sessions()
        #expect(rows.map(\.kind) == [nil, nil])
        let export = Exchange.encode(rows, as: .json, localDevice: "d")
        #expect(try Exchange.decode(export, localDevice: "d", now: testNow).count == 2)
    }

    @Test func a_list_of_alternatives_that_cannot_be_read_is_never_written_over() throws {
        let file = folder.path + "/instead.txt"
        let big = String(repeating: "# a long note\n", count: 6000)
        try big.write(toFile: file, atomically: true, encoding: .utf8)
        var list = Instead(file: file)
        #expect(list.problems.count == 1)
        #expect(throws: MigaError.self) { try list.add("read ten pages") }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == big)
        let fifo = folder.path + "/fifo.txt"
        #expect(mkfifo(fifo, 0o600) == 0)
        var piped = Instead(file: fifo)
        #expect(throws: MigaError.self) { try piped.add("read ten pages") }
    }

    @Test func a_store_from_before_kinds_counts_its_pauses_as_breathing_ones() throws {
        // A version 5 store, as the miga before kinds left it.
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let queue = try SerialConnection(path: path, .readWrite)
        try queue.withConnection { db in
            for step in Schema.steps.prefix(5) { try db.execute(sql: step) }
            try db.execute(sql: "PRAGMA user_version = 5")
            try db.execute(sql: "INSERT INTO sessions (id, program, started_at, ended_at, outcome) VALUES ('old', 'discord', 1, 2, 'exit')")
        }
        let store = try SessionStore(path: path)
        #expect(try store.sessions().first?.kind == nil)
        #expect(try store.kindRecords() == [.breathe: KindRecord(shown: 1, exits: 1)])
    }

    @Test func the_day_tallies_from_sqlite_agree_with_the_records_across_dst() throws {
        let store = try SessionStore(path: path)
        var records: [SessionRecord] = []
        // Around the autumn change in Berlin (2026-10-25): 00:30 and 23:30 local each day.
        for day in 20...30 {
            for (hour, minute) in [(0, 30), (23, 30)] {
                var parts = DateComponents(timeZone: berlin, year: 2026, month: 10, day: day, hour: hour, minute: minute)
                parts.calendar = Calendar(identifier: .gregorian)
                let end = try #require(parts.date)
                let outcome: SessionOutcome = [.exit, .proceed, .passthrough, .abandoned][(day + hour) % 4]
                records.append(SessionRecord(id: "\(day)-\(hour)", program: day % 2 == 0 ? "discord" : "steam",
                                             startedAt: end.addingTimeInterval(-30), endedAt: end, outcome: outcome))
            }
        }
        try store.insertMissing(records)
        let fromStore = try store.dayTallies(in: LocalZone(berlin))
        #expect(fromStore == DayTally.tallies(from: records, in: LocalZone(berlin)))
        #expect(fromStore.reduce(0) { $0 + $1.attempts } == 22)
        #expect(Set(fromStore.map(\.day)).count == 11)
    }

    @Test func the_kinds_read_from_the_totals_while_every_pause_breathed_are_the_kinds_read_from_the_rows() throws {
        let store = try SessionStore(path: path)
        func allTime() throws -> [String: Totals] {
            Dictionary(uniqueKeysWithValues: try store.totalsByProgram(SessionStore.Scope()).map { ($0.program, $0.totals) })
        }
        func agree(_ what: String) throws {
            for program in [nil, "discord", "steam", "absent"] {
                #expect(try store.kindRecords(program: program, allTime: allTime()) == store.kindRecords(program: program),
                        "\(what), \(program ?? "all")")
            }
        }
        try agree("an empty history")
        // Pauses from before there were kinds (NULL), breathing ones, pass-throughs and an open row.
        let outcomes: [SessionOutcome] = [.exit, .proceed, .abandoned, .passthrough, .exit, .open]
        try store.insertMissing(outcomes.enumerated().map { index, outcome in
            SessionRecord(id: "b\(index)", program: index % 2 == 0 ? "discord" : "steam", startedAt: now, endedAt: now + 1,
                          outcome: outcome, pausedSeconds: 5, kind: index < 3 || outcome == .passthrough ? nil : .breathe)
        })
        try agree("breathing only")
        #expect(try store.kindRecords(allTime: allTime()) == [.breathe: KindRecord(shown: 4, exits: 2)])
        // One typed pause of steam's: the rows are read.
        try store.insertMissing([SessionRecord(id: "t", program: "steam", startedAt: now, endedAt: now + 1, outcome: .exit,
                                               pausedSeconds: 5, kind: .type)])
        try agree("a typed pause")
        #expect(try store.kindRecords(program: "steam", allTime: allTime())[.type] == KindRecord(shown: 1, exits: 1))
    }

    @Test func the_record_the_gateway_chooses_by_is_the_programs_record_in_the_stats() throws {
        let store = try SessionStore(path: path)
        // Every kind, none (from before there were kinds), every outcome, three programs.
        let kinds: [PauseKind?] = [nil, .breathe, .type, .intention, .instead]
        let outcomes: [SessionOutcome] = [.exit, .proceed, .abandoned, .passthrough, .open, .exit, .exit]
        try store.insertMissing((0..<70).map { index in
            SessionRecord(id: "r\(index)", program: ["discord", "steam", "firefox"][index % 3], startedAt: now, endedAt: now + 1,
                          outcome: outcomes[index % outcomes.count], pausedSeconds: 5,
                          kind: outcomes[index % outcomes.count] == .passthrough ? nil : kinds[index % kinds.count])
        })
        let stats = try store.kindRecordsByProgram()
        #expect(Set(stats.keys) == ["discord", "steam", "firefox"])
        for program in ["discord", "steam", "firefox", "absent"] {
            let gateway = try store.queue.read { try SessionStore.kindRecordsByProgram($0, program: program)[program] ?? [:] }
            #expect(gateway == stats[program] ?? [:], "\(program)")
        }
    }

    @Test func the_effect_from_the_stores_indexes_is_the_effect_from_the_tallies() throws {
        // Sixty days around the spring change in Berlin (2026-03-29), two
        // programs, a five-day gap, sessions at 00:30 and 23:30 local, and two
        // dated ahead of every "today" asked about (a clock ahead elsewhere).
        let store = try SessionStore(path: path)
        var records: [SessionRecord] = []
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let first = try #require(calendar.date(from: DateComponents(year: 2026, month: 3, day: 1)))
        for offset in 0..<60 where !(30...34).contains(offset) {
            let day = try #require(calendar.date(byAdding: .day, value: offset, to: first))
            for (index, (hour, minute)) in [(0, 30), (9, 0), (23, 30)].enumerated() where (offset + index) % 5 != 0 {
                let end = try #require(calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day))
                let outcome: SessionOutcome = [.exit, .proceed, .passthrough, .abandoned, .exit][(offset * 3 + index) % 5]
                records.append(SessionRecord(id: "\(offset)-\(index)", program: offset < 40 || index == 1 ? "discord" : "steam",
                                             startedAt: end.addingTimeInterval(-30), endedAt: end, outcome: outcome))
            }
        }
        let ahead = try #require(calendar.date(from: DateComponents(year: 2026, month: 9, day: 1)))
        records.append(SessionRecord(id: "ahead", program: "discord", startedAt: ahead, endedAt: ahead, outcome: .exit))
        try store.insertMissing(records)
        let counts = try store.effectCounts(in: LocalZone(berlin))
        let tallies = DayTally.tallies(from: records, in: LocalZone(berlin))
        for today in ["2026-02-20", "2026-03-01", "2026-03-05", "2026-03-09", "2026-03-30", "2026-04-03", "2026-04-12", "2026-05-10"] {
            let day = try #require(LocalDay(parsing: today))
            #expect(try Effect.measure(counts, today: day) == Effect.measure(tallies, today: day), "\(today)")
            #expect(try store.measureEffect(in: LocalZone(berlin), today: day) == Effect.measure(tallies, today: day), "\(today), in one read")
        }
        let late = try Effect.measure(counts, today: try #require(LocalDay(parsing: "2026-05-10")))
        #expect(late.overall.rebound?.gapDays == 5)
        #expect(late.programs.map(\.program) == ["discord", "steam"])
    }

    @Test func the_latest_gap_from_the_stores_indexes_is_the_gap_from_the_tallies() throws {
        // Random histories through both of Berlin's clock changes of 2026: runs of days with
        // sessions (any hour, the first and last half hour of the day too) and runs without.
        var generator = SeededGenerator(seed: 315)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let first = try #require(calendar.date(from: DateComponents(year: 2026, month: 2, day: 20)))
        let times = [(0, 0), (0, 30), (2, 30), (9, 0), (23, 30), (23, 59)]
        for round in 0..<12 {
            let folder = TemporaryDirectory()
            let store = try SessionStore(path: folder.path + "/miga.sqlite")
            var records: [SessionRecord] = []
            var offset = 0
            while offset < 260 {
                let run = Int.random(in: 1...9, using: &generator)
                for day in offset..<(offset + run) {
                    let date = try #require(calendar.date(byAdding: .day, value: day, to: first))
                    let (hour, minute) = times.randomElement(using: &generator)!
                    let end = try #require(calendar.date(bySettingHour: hour, minute: minute, second: 0, of: date))
                    records.append(SessionRecord(id: "\(round)-\(day)", program: "discord", startedAt: end - 30, endedAt: end,
                                                 outcome: [.exit, .proceed, .abandoned, .passthrough].randomElement(using: &generator)!))
                }
                offset += run + [0, 1, 2, 3, 3, 4, 6].randomElement(using: &generator)!
            }
            try store.insertMissing(records)
            let counts = try store.effectCounts(in: LocalZone(berlin))
            let tallies = TallyCounts(DayTally.tallies(from: records, in: LocalZone(berlin)))
            for _ in 0..<8 {
                let today = LocalDay(number: LocalDay(first, in: berlin).number + Int.random(in: 0...270, using: &generator))
                let fromStore = try counts.latestGap(through: today)
                let expected = tallies.latestGap(through: today)
                #expect(fromStore?.start == expected?.start && fromStore?.days == expected?.days, "round \(round), \(today)")
            }
        }
    }

    // MARK: Files

    @Test(arguments: Exchange.Format.allCases)
    func export_import_and_sync_carry_the_kind_the_typed_line_and_the_alternative(format: Exchange.Format) throws {
        let sessions = [
            SessionRecord(id: "t", program: "discord", startedAt: now, endedAt: now + 30, outcome: .proceed, pausedSeconds: 30,
                          kind: .type, typed: true),
            SessionRecord(id: "i", program: "discord", startedAt: now + 60, endedAt: now + 70, outcome: .exit, pausedSeconds: 10,
                          kind: .instead, alternative: "read ten pages, \"slowly\""),
        ]
        let back = try Exchange.decode(Exchange.encode(sessions, as: format, localDevice: "d"), localDevice: "d", now: testNow)
        // Read back, they keep where the file says they happened.
        #expect(back == sessions.map { record in
            var record = record
            record.origin = "d"
            return record
        })
        let line = Exchange.line(sessions[1], localDevice: "d")
        #expect(line.contains("\"kind\":\"instead\""))
        let synced = Sync.parse(line + "\n", device: "d", localDevice: "e", now: testNow).records
        #expect(synced.first?.alternative == "read ten pages, \"slowly\"")
    }

    @Test func an_export_from_before_kinds_still_imports() throws {
        let csv = "id,program,started_at,ended_at,outcome,paused_seconds,deepen_count,quotes,device,reason,intention,origin\r\n"
            + "x,discord,2027-01-15T08:00:00.000Z,2027-01-15T08:01:00.000Z,exit,60,0,zen-001,d,,,\r\n"
        let row = try #require(try Exchange.decode(csv, localDevice: "d", now: testNow).first)
        #expect(row.kind == nil && row.typed == nil && row.alternative == nil)
        let json = "{\"format\":\"miga-sessions\",\"version\":1,\"sessions\":[{\"id\":\"y\",\"program\":\"discord\",\"started_at\":\"2027-01-15T08:00:00.000Z\",\"outcome\":\"proceed\",\"paused_seconds\":5,\"deepen_count\":0,\"quotes\":[],\"device\":\"d\"}]}"
        #expect(try Exchange.decode(json, localDevice: "d", now: testNow).first?.kind == nil)
    }

    @Test func impossible_kinds_are_refused_naming_the_record() {
        func json(_ fields: String, outcome: String = "exit") -> String {
            "{\"format\":\"miga-sessions\",\"version\":1,\"sessions\":[{\"id\":\"y\",\"program\":\"discord\",\"started_at\":\"2027-01-15T08:00:00.000Z\",\"outcome\":\"\(outcome)\",\"paused_seconds\":5,\"deepen_count\":0,\"quotes\":[],\"device\":\"d\",\(fields)}]}"
        }
        #expect(throws: MigaError(dataError: "session 1: a kind (breathe, type, intention, instead) belongs to a pause only, not \"juggle\" on exit")) {
            try Exchange.decode(json("\"kind\":\"juggle\""), localDevice: "d", now: testNow)
        }
        #expect(throws: MigaError(dataError: "session 1: a kind (breathe, type, intention, instead) belongs to a pause only, not \"type\" on passthrough")) {
            try Exchange.decode(json("\"kind\":\"type\"", outcome: "passthrough"), localDevice: "d", now: testNow)
        }
        #expect(throws: MigaError(dataError: "session 1: typed belongs to a pause of the kind type only")) {
            try Exchange.decode(json("\"kind\":\"breathe\",\"typed\":true"), localDevice: "d", now: testNow)
        }
        #expect(throws: MigaError(dataError: "session 1: an alternative belongs to an exit only, not to proceed")) {
            try Exchange.decode(json("\"alternative\":\"walk\"", outcome: "proceed"), localDevice: "d", now: testNow)
        }
    }

    // MARK: Settings

    @Test func pause_kinds_and_rotate_are_read_globally_and_per_program() {
        let loaded = ConfigLoader.parse("""
            pause_kinds = ["breathe", "type"]
            rotate = "cycle"
            weekly_review = false

            [programs.discord]
            pause_kinds = ["instead"]
            rotate = "off"
            """, file: "config.toml")
        #expect(loaded.problems.isEmpty)
        let config = loaded.config
        #expect(config.pauseKinds == [.breathe, .type] && config.rotate == .cycle && !config.weeklyReview)
        let discord = config.kindsInUse(for: config.settings(for: "discord")) { false }
        #expect(discord == KindsInUse(kinds: [.instead], rotation: .off))
        let steam = config.kindsInUse(for: config.settings(for: "steam")) { false }
        #expect(steam == KindsInUse(kinds: [.breathe, .type], rotation: .cycle))
    }

    @Test func an_unknown_or_empty_list_of_kinds_is_reported_with_its_line_and_the_defaults_used() {
        let loaded = ConfigLoader.parse("""
            pause = 30
            pause_kinds = ["breathe", "juggle"]

            [programs.discord]
            pause_kinds = []
            rotate = "sometimes"
            """, file: "config.toml")
        #expect(loaded.config.pauseKinds == PauseKind.defaults)
        #expect(loaded.config.programs["discord"]?.pauseKinds == nil)
        #expect(loaded.problems.map(\.description) == [
            "config.toml:2:1: `pause_kinds` holds \"juggle\", which is no kind of pause (the kinds are \"breathe\", \"type\", \"intention\" and \"instead\"); using the defaults [\"breathe\"]",
            "config.toml:5:1: `programs.discord.pause_kinds` is empty: name at least one of \"breathe\", \"type\", \"intention\" and \"instead\"; using the top-level pause_kinds",
            "config.toml:6:1: `programs.discord.rotate` must be one of \"adaptive\", \"cycle\", \"off\", not \"sometimes\"; using \"adaptive\"",
        ])
    }

    @Test func miga_protect_names_the_kinds_when_one_is_not_a_kind() {
        #expect(ProgramChanges(pauseKinds: ["type", "bogus"]).problem
            == "the list of kinds of pause holds \"bogus\", which is no kind of pause (the kinds are \"breathe\", \"type\", \"intention\" and \"instead\")")
        #expect(ProgramChanges(pauseKinds: []).problem
            == "the list of kinds of pause is empty: name at least one of \"breathe\", \"type\", \"intention\" and \"instead\"")
    }

    // MARK: The weekly look back

    @Test func the_look_back_is_due_from_monday_nine_and_claimed_once_a_week() throws {
        // 2026-11-23 was a Monday.
        func at(_ day: Int, _ hour: Int) -> Date {
            var parts = DateComponents(timeZone: berlin, year: 2026, month: 11, day: day, hour: hour)
            parts.calendar = Calendar(identifier: .gregorian)
            return parts.date!
        }
        #expect(WeeklyLookBack.due(before: at(23, 10), in: LocalZone(berlin)).monday == LocalDay(year: 2026, month: 11, day: 23))
        #expect(WeeklyLookBack.due(before: at(23, 8), in: LocalZone(berlin)).monday == LocalDay(year: 2026, month: 11, day: 16))
        #expect(WeeklyLookBack.due(before: at(29, 23), in: LocalZone(berlin)).monday == LocalDay(year: 2026, month: 11, day: 23))
        let store = try SessionStore(path: path)
        // A new history's first run claims without sending; later runs that week send nothing.
        #expect(try !WeeklyLookBack.claim(in: store, now: at(24, 12), timeZone: LocalZone(berlin)))
        #expect(try !WeeklyLookBack.claim(in: store, now: at(26, 12), timeZone: LocalZone(berlin)))
        #expect(try !WeeklyLookBack.claim(in: store, now: at(30, 8), timeZone: LocalZone(berlin)))
        #expect(try WeeklyLookBack.claim(in: store, now: at(30, 9), timeZone: LocalZone(berlin)))
        #expect(try !WeeklyLookBack.claim(in: store, now: at(30, 10), timeZone: LocalZone(berlin)))
    }

    @Test func the_gateways_look_and_the_claim_begin_a_week_at_monday_nine_across_clock_changes() throws {
        let store = try SessionStore(path: path)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        // Berlin's clocks went forward on Sunday 2026-03-29 and back on Sunday 2026-10-25.
        for (month, day) in [(3, 30), (10, 26), (11, 23)] {
            let monday = LocalDay(year: 2026, month: month, day: day)
            let nine = try #require(calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: 9)))
            let nineBefore = try #require(calendar.date(byAdding: .day, value: -7, to: nine))
            try store.setMeta(WeeklyLookBack.metaKey, String(monday.number - 7))
            // Every quarter of an hour from the Saturday before, 00:00, to the Tuesday, 00:00.
            for step in -(57 * 4)...(15 * 4) {
                let now = nine.addingTimeInterval(Double(step) * 900)
                let due = WeeklyLookBack.due(before: now, in: LocalZone(berlin))
                #expect(due.monday == (now >= nine ? monday : LocalDay(number: monday.number - 7)), "\(now)")
                #expect(due.at == (now >= nine ? nine : nineBefore), "\(now)")
                let (today, hour) = LocalDay.dayAndHour(of: now, in: berlin)
                #expect(WeeklyLookBack.mightBeDue(in: store, today: today, hour: hour) == (now >= nine), "\(now)")
            }
        }
    }

    @Test func the_look_back_goes_out_as_a_notification_only_when_due_and_wanted() throws {
        let store = try SessionStore(path: path)
        let monday = Date(timeIntervalSince1970: 1_795_424_400) // 2026-11-23 09:00 in Berlin (UTC+1)
        var records: [SessionRecord] = []
        for day in 1...20 {
            let end = monday.addingTimeInterval(-Double(day) * 86_400 + 3600)
            records.append(SessionRecord(id: "e\(day)", program: "discord", startedAt: end - 60, endedAt: end, outcome: .exit, kind: .breathe))
            records.append(SessionRecord(id: "p\(day)", program: "discord", startedAt: end - 30, endedAt: end, outcome: .proceed, kind: .breathe))
        }
        try store.insertMissing(records)
        try store.setMeta(WeeklyLookBack.metaKey, String(LocalDay(year: 2026, month: 11, day: 16).number))
        let notifier = RecordingNotifier()
        var config = Config()
        config.weeklyReview = false
        #expect(WeeklyLookBack.sendIfDue(config: config, store: store, now: monday + 60, timeZone: LocalZone(berlin), notifier: notifier) == nil)
        config.weeklyReview = true
        let sent = try #require(WeeklyLookBack.sendIfDue(config: config, store: store, now: monday + 60, timeZone: LocalZone(berlin), notifier: notifier))
        #expect(notifier.notifications.map(\.summary) == [sent.summary])
        #expect(sent.body.hasPrefix("14 attempts, 7 conscious exits"), "\(sent.body)")
        #expect(WeeklyLookBack.sendIfDue(config: config, store: store, now: monday + 120, timeZone: LocalZone(berlin), notifier: notifier) == nil)
        #expect(notifier.notifications.count == 1)
    }

    @Test func the_look_back_covers_the_calendar_week_that_ended_across_a_clock_change() throws {
        // Berlin moved its clocks on Sunday 2026-03-29. Sent on Thursday 2026-04-02, the look
        // back covers Monday 03-23 00:00 to Monday 03-30 00:00 local, not the 7 days before Thursday.
        func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
            var parts = DateComponents(timeZone: berlin, year: 2026, month: day > 20 ? 3 : 4, day: day, hour: hour, minute: minute)
            parts.calendar = Calendar(identifier: .gregorian)
            return parts.date!
        }
        let store = try SessionStore(path: path)
        let ends = [(at(22, 23, 30), SessionOutcome.exit),      // Sunday before: out
                    (at(23, 0, 30), .exit), (at(29, 23, 30), .proceed),   // Monday's first hour and Sunday's last: in
                    (at(30, 0, 30), .exit), (at(1, 12), .exit)]  // this week: out
        try store.insertMissing(ends.enumerated().map { index, end in
            SessionRecord(id: "s\(index)", program: "discord", startedAt: end.0 - 30, endedAt: end.0, outcome: end.1, kind: .breathe)
        })
        try store.setMeta(WeeklyLookBack.metaKey, String(LocalDay(year: 2026, month: 3, day: 23).number))
        let sent = try #require(WeeklyLookBack.sendIfDue(config: Config(), store: store, now: at(2, 12), timeZone: LocalZone(berlin),
                                                         notifier: RecordingNotifier()))
        #expect(sent.body == "2 attempts, 1 conscious exit")
    }

    @Test func the_suggestion_knows_the_kinds_everyone_uses() throws {
        // Discord has no kinds of its own: the top-level list is its list.
        let monday = Date(timeIntervalSince1970: 1_795_424_400) // 2026-11-23 09:00 in Berlin
        func send(_ settings: String) throws -> [String] {
            let folder = TemporaryDirectory()
            let store = try SessionStore(path: folder.path + "/miga.sqlite")
            var records: [SessionRecord] = []
            // 10 of 20 pauses ended in an exit before the week, 1 of 7 in it.
            for day in 8...27 {
                let end = monday.addingTimeInterval(-Double(day) * 86_400)
                records.append(SessionRecord(id: "b\(day)", program: "discord", startedAt: end - 30, endedAt: end,
                                             outcome: day % 2 == 0 ? .exit : .proceed, kind: .breathe))
            }
            for day in 1...7 {
                let end = monday.addingTimeInterval(-Double(day) * 86_400)
                records.append(SessionRecord(id: "w\(day)", program: "discord", startedAt: end - 30, endedAt: end,
                                             outcome: day == 1 ? .exit : .proceed, kind: .breathe))
            }
            try store.insertMissing(records)
            try store.setMeta(WeeklyLookBack.metaKey, String(LocalDay(year: 2026, month: 11, day: 16).number))
            let config = ConfigLoader.parse(settings + "\n[programs.steam]\n", file: "config.toml").config
            let sent = try #require(WeeklyLookBack.sendIfDue(config: config, store: store, now: monday + 60, timeZone: LocalZone(berlin),
                                                             notifier: RecordingNotifier()))
            return sent.body.split(separator: "\n").map(String.init)
        }
        #expect(try send("pause_kinds = [\"breathe\", \"type\"]").count == 1)
        #expect(try send("pause_kinds = [\"intention\"]").last?.hasSuffix("miga protect discord --kinds intention,type") == true)
    }

    // MARK: The list of alternatives

    @Test func the_list_of_alternatives_keeps_notes_refuses_what_cannot_be_shown_and_removes_by_number_or_words() throws {
        let file = folder.path + "/config/instead.txt"
        try FileManager.default.createDirectory(atPath: folder.path + "/config", withIntermediateDirectories: true)
        try "# mine\nread ten pages\r\nbad \u{1B}]52;c;x\u{07} one\n\(String(repeating: "x", count: 81))\n".write(toFile: file, atomically: true, encoding: .utf8)
        var list = Instead(file: file)
        #expect(list.items == ["read ten pages"])
        #expect(list.problems == ["\(file):3: holds a control character; skipped", "\(file):4: longer than 80 characters; skipped"])
        #expect(try list.add("Go for a walk"))
        #expect(try !list.add("go for a WALK"))
        #expect(throws: MigaError(usage: "that alternative holds a control character")) { try list.add("x\u{1B}[2J") }
        #expect(throws: MigaError.self) { try list.add("   ") }
        #expect(try list.remove("1") == "read ten pages")
        #expect(try list.remove("GO FOR A WALK") == "Go for a walk")
        #expect(throws: MigaError.self) { try list.remove("3") }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("# mine\n"))
        #expect(Instead(file: file).items.isEmpty)
    }
}
