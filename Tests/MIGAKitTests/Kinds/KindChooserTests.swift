import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGATerminal
@testable import MIGAConfig

/// Counts the numbers drawn, to show when a choice needs no randomness.
private struct CountingGenerator: RandomNumberGenerator {
    var inner = SeededGenerator(seed: 5)
    var draws = 0

    mutating func next() -> UInt64 {
        draws += 1
        return inner.next()
    }
}

@Suite struct KindChooserTests {
    let three: [PauseKind] = [.breathe, .type, .intention]

    func choose(_ kinds: [PauseKind], _ rotation: Rotation, records: [PauseKind: KindRecord] = [:],
                last: PauseKind?, seed: UInt64 = 1) -> KindChoice {
        var generator = SeededGenerator(seed: seed)
        return KindChooser.choose(among: kinds, rotation: rotation, records: records, last: last, using: &generator)
    }

    @Test func off_always_shows_the_first_kind() {
        for last in [nil, .breathe, .type, .instead] as [PauseKind?] {
            #expect(choose(three, .off, last: last).kind == .breathe)
        }
    }

    @Test func off_explains_itself_only_when_it_replaces_another_kind() {
        #expect(choose(three, .off, last: nil).why == nil)
        #expect(choose(three, .off, last: .breathe).why == nil)
        #expect(choose(three, .off, last: .type).why == "A breathing pause: the first of the kinds you chose")
    }

    @Test func cycle_takes_the_kinds_in_turn_and_wraps() {
        #expect(choose(three, .cycle, last: .breathe).kind == .type)
        #expect(choose(three, .cycle, last: .type).kind == .intention)
        #expect(choose(three, .cycle, last: .intention).kind == .breathe)
    }

    @Test func cycle_starts_at_the_first_kind_without_a_known_last_one() {
        #expect(choose(three, .cycle, last: nil).kind == .breathe)
        #expect(choose(three, .cycle, last: .instead).kind == .breathe)
    }

    @Test func cycle_says_it_takes_turns() {
        #expect(choose(three, .cycle, last: .breathe).why == "A typed pause this time: MIGA takes the kinds you chose in turn")
        #expect(choose([.type, .instead], .cycle, last: .type).why
            == "A pause with an alternative this time: MIGA takes the kinds you chose in turn")
    }

    @Test func one_kind_is_that_kind_without_any_randomness() {
        for rotation in Rotation.allCases {
            var generator = CountingGenerator()
            let choice = KindChooser.choose(among: [.intention], rotation: rotation,
                                            records: [.intention: KindRecord(shown: 9, exits: 2)], last: .breathe,
                                            using: &generator)
            #expect(choice == KindChoice(kind: .intention, why: nil))
            #expect(generator.draws == 0)
        }
    }

    @Test func no_kinds_falls_back_to_breathing() {
        for rotation in Rotation.allCases {
            #expect(choose([], rotation, last: .type) == KindChoice(kind: .breathe, why: nil))
        }
    }

    @Test func duplicates_count_once() {
        #expect(choose([.type, .type, .breathe], .cycle, last: .type).kind == .breathe)
        var generator = CountingGenerator()
        _ = KindChooser.choose(among: [.type, .type], rotation: .adaptive, records: [:], last: nil, using: &generator)
        #expect(generator.draws == 0)
    }

    @Test func adaptive_mostly_shows_the_kind_that_works_but_never_abandons_the_other() {
        let records = [PauseKind.type: KindRecord(shown: 100, exits: 90), .breathe: KindRecord(shown: 100, exits: 10)]
        var generator = SeededGenerator(seed: 2024)
        var picks: [PauseKind: Int] = [:]
        let rounds = 2000
        for _ in 0..<rounds {
            let choice = KindChooser.choose(among: [.breathe, .type], rotation: .adaptive, records: records,
                                            last: nil, using: &generator)
            picks[choice.kind, default: 0] += 1
        }
        let strong = Double(picks[.type, default: 0]) / Double(rounds)
        // Thompson sampling alone would all but always pick `type`; the floor
        // sends a tenth of choices to either kind, half of them to `breathe`.
        #expect(strong >= 0.90 && strong <= 0.97, "type picked \(strong)")
        #expect(Double(picks[.breathe, default: 0]) / Double(rounds) >= 0.03)
    }

    @Test func while_a_favourite_is_sought_the_leader_and_a_challenger_share_the_choices() {
        // Type far ahead, as above: seeking, it has only its share, and the runner-up is the challenger.
        let records = [PauseKind.type: KindRecord(shown: 100, exits: 90), .breathe: KindRecord(shown: 100, exits: 10),
                       .intention: KindRecord(shown: 100, exits: 40)]
        for kinds in [[PauseKind.breathe, .type], three] {
            var generator = SeededGenerator(seed: 2025)
            var picks: [PauseKind: Int] = [:]
            let rounds = 4000
            for _ in 0..<rounds {
                let kind = KindChooser.choose(among: kinds, rotation: .adaptive, evidence: records.mapValues(KindEvidence.init),
                                              last: nil, seekingFavourite: true, using: &generator).kind
                picks[kind, default: 0] += 1
            }
            func share(_ kind: PauseKind) -> Double { Double(picks[kind, default: 0]) / Double(rounds) }
            // Each kind's part of the exploration floor's choices, beside the leader's and the challenger's shares.
            let floor = KindChooser.explorationFloor / Double(kinds.count)
            let leader = (1 - KindChooser.explorationFloor) * KindChooser.leaderShareWhileSeeking
            #expect(abs(share(.type) - leader - floor) < 0.03, "\(kinds): \(picks)")
            let challenger: PauseKind = kinds.contains(.intention) ? .intention : .breathe
            #expect(abs(share(challenger) - (1 - KindChooser.explorationFloor - leader) - floor) < 0.03, "\(kinds): \(picks)")
        }
    }

    @Test func adaptive_without_records_spreads_over_every_kind() {
        var generator = SeededGenerator(seed: 11)
        var picks: [PauseKind: Int] = [:]
        for _ in 0..<3000 {
            let choice = KindChooser.choose(among: three, rotation: .adaptive, records: [:], last: nil, using: &generator)
            picks[choice.kind, default: 0] += 1
        }
        for kind in three { #expect(picks[kind, default: 0] > 800, "\(kind): \(picks[kind, default: 0])") }
    }

    @Test func adaptive_is_the_same_for_the_same_seed() {
        let records = [PauseKind.type: KindRecord(shown: 12, exits: 5), .breathe: KindRecord(shown: 30, exits: 11)]
        func sequence(seed: UInt64) -> [PauseKind] {
            var generator = SeededGenerator(seed: seed)
            var last: PauseKind?
            return (0..<200).map { _ in
                let kind = KindChooser.choose(among: three, rotation: .adaptive, records: records, last: last,
                                              using: &generator).kind
                last = kind
                return kind
            }
        }
        #expect(sequence(seed: 42) == sequence(seed: 42))
        #expect(sequence(seed: 42) != sequence(seed: 43))
    }

    @Test func adaptive_quotes_the_rate_once_a_kind_has_a_record() {
        let records = [PauseKind.type: KindRecord(shown: 22, exits: 9), .breathe: KindRecord(shown: 3, exits: 1)]
        var seen: Set<PauseKind> = []
        for seed in 0..<60 as Range<UInt64> {
            let choice = choose([.breathe, .type, .instead], .adaptive, records: records, last: .intention, seed: seed)
            seen.insert(choice.kind)
            switch choice.kind {
            case .type: #expect(choice.why == "Trying a typed pause: 41 % of yours end in a conscious exit")
            case .breathe: #expect(choice.why == "Trying a breathing pause: MIGA is still learning how it suits you")
            case .instead:
                #expect(choice.why == "Trying a pause with an alternative: MIGA is still learning how it suits you")
            case .intention: Issue.record("intention is not in use")
            }
        }
        #expect(seen == [.breathe, .type, .instead])
    }

    @Test func adaptive_says_nothing_when_the_kind_stays() {
        for seed in 0..<40 as Range<UInt64> {
            let choice = choose(three, .adaptive, last: .type, seed: seed)
            #expect((choice.why == nil) == (choice.kind == .type))
        }
    }

    @Test func every_line_fits_a_narrow_terminal() {
        let full = [PauseKind.type: KindRecord(shown: 100, exits: 100), .instead: KindRecord(shown: 100, exits: 100)]
        for kinds in [PauseKind.allCases, PauseKind.allCases.reversed()] {
            for last in PauseKind.allCases {
                for rotation in Rotation.allCases {
                    for records in [[:], full] {
                        for seed in 0..<20 as Range<UInt64> {
                            let why = choose(kinds, rotation, records: records, last: last, seed: seed).why ?? ""
                            #expect(why.count < 80, "\(why)")
                        }
                    }
                }
            }
        }
    }

    @Test func a_record_gives_a_rate_and_a_posterior() {
        #expect(KindRecord().rate == nil)
        #expect(KindRecord().posterior == BetaDistribution(alpha: 1, beta: 1))
        let record = KindRecord(shown: 40, exits: 12)
        #expect(record.rate == 0.3)
        #expect(record.posterior == BetaDistribution(alpha: 13, beta: 29))
    }

    @Test func a_damaged_record_still_gives_a_sane_posterior() {
        #expect(KindRecord(shown: 3, exits: 7).rate == 1)
        #expect(KindRecord(shown: 3, exits: 7).posterior == BetaDistribution(alpha: 4, beta: 1))
        #expect(KindRecord(shown: -2, exits: -1).posterior == BetaDistribution(alpha: 1, beta: 1))
        #expect(KindRecord(shown: .max, exits: .max).posterior.mean.isFinite)
    }
}

@Suite struct KindTableTests {
    let records = [PauseKind.breathe: KindRecord(shown: 40, exits: 12), .type: KindRecord(shown: 22, exits: 11)]

    /// Typed pauses succeeding 30 times in 50 and breathing 10 in 50, taken in turn: a clear favourite where MIGA chooses.
    let clearLead = (0..<50).flatMap { index in
        [LearnedPause(kind: .type, succeeded: index < 30), LearnedPause(kind: .breathe, succeeded: index < 10)]
    }

    func favourite(_ pauses: [LearnedPause], _ kinds: [PauseKind], _ rotation: Rotation = .adaptive) -> PauseKind? {
        KindTable.favourite(after: pauses, among: KindsInUse(kinds: kinds, rotation: rotation))
    }

    @Test func a_favourite_is_named_only_where_miga_chooses_by_what_works() {
        #expect(favourite(clearLead, [.breathe, .type]) == .type)
        // rotate = "cycle" or "off": the person's order decides, not what works.
        #expect(favourite(clearLead, [.breathe, .type], .cycle) == nil)
        #expect(favourite(clearLead, [.breathe, .type], .off) == nil)
        // One kind: there is nothing to choose.
        #expect(favourite(clearLead, [.type]) == nil)
        let table = KindTable(records: records, held: nil, kinds: [.breathe, .type])
        #expect(!table.text(width: 80).joined().contains("favours"))
        #expect(!table.text(width: 80).joined().contains("★"))
        #expect(table.rows.count == 2)
    }

    @Test func nothing_is_favoured_before_every_kind_in_use_is_known() {
        #expect(favourite([], [.breathe, .type]) == nil)
        // Intention is in use and never shown: not yet known, so not worse.
        #expect(favourite(clearLead, [.breathe, .type, .intention]) == nil)
    }

    @Test func the_favourite_is_said_per_program_and_starred_only_in_one_programs_table() {
        let favourites = [KindTable.Favourite(program: "discord", name: "Discord", kind: .type),
                          KindTable.Favourite(program: "steam", name: "Steam", kind: .breathe)]
        let overall = KindTable(records: records, held: nil, kinds: [.breathe, .type], favourites: favourites)
        #expect(overall.favoured == nil)
        #expect(Array(overall.text(width: 80).suffix(2)) == ["MIGA now favours a typed pause for Discord",
                                                             "MIGA now favours a breathing pause for Steam"])
        #expect(!overall.text(width: 80).joined().contains("★"))
        let discord = KindTable(records: records, held: nil, kinds: [.breathe, .type], favourites: Array(favourites.prefix(1)), program: "discord")
        #expect(discord.favoured == .type)
        #expect(discord.text(width: 80).contains { $0.hasPrefix("  type ★") })
        #expect(discord.text(width: 80).last == "★ MIGA now favours a typed pause for Discord")
    }

    /// Of those pauses, the exits that held: what the learner counts.
    let held = [PauseKind.breathe: 10, .type: 9]

    @Test func rows_cover_the_kinds_in_use_and_any_with_a_record_in_kind_order() {
        let table = KindTable(records: records.merging([.instead: KindRecord()]) { $1 }, held: held, kinds: [.intention, .type])
        #expect(table.rows.map(\.kind) == [.breathe, .type, .intention])
        let breathe = table.rows[0]
        #expect(breathe.shown == 40 && breathe.exits == 12 && breathe.rate == 0.3)
        #expect(breathe.held == 10 && breathe.heldRate == 0.25)
        #expect(abs(breathe.intervalLow - BetaDistribution(alpha: 13, beta: 29).quantile(0.05)) < 1e-12)
        #expect(abs((breathe.heldIntervalLow ?? 0) - BetaDistribution(alpha: 11, beta: 31).quantile(0.05)) < 1e-12)
        #expect(table.rows[2].rate == nil && table.rows[2].held == 0 && table.rows[2].heldRate == nil)
    }

    @Test func the_table_at_eighty_columns_shows_the_exits_that_held_and_every_exit_beside_them() {
        let table = KindTable(records: records.merging([.instead: KindRecord(shown: 5, exits: 0)]) { $1 }, held: held,
                              kinds: [.breathe, .type, .intention],
                              favourites: [KindTable.Favourite(program: "discord", name: "Discord", kind: .type)], program: "discord")
        #expect(table.text(width: 80) == [
            "Kinds of pause      shown   held   held rate   90 % interval   exits",
            "  breathe              40     10        25 %         16–38 %      12",
            "  type ★               22      9        41 %         26–58 %      11",
            "  intention             0      0           –               –       0",
            "  instead               5      0         0 %          1–39 %       0",
            "held = exits that held, what MIGA learns from; exits = all of them",
            "★ MIGA now favours a typed pause for Discord",
        ])
    }

    @Test func a_narrow_table_drops_every_exit_first_then_the_interval() {
        let table = KindTable(records: records, held: held, kinds: [.breathe, .type])
        #expect(table.text(width: 60).prefix(1) == ["Kinds of pause      shown   held   held rate   90 % interval"])
        #expect(table.text(width: 60).contains("held = exits that held, what MIGA learns from"))
        #expect(table.text(width: 50)[0] == "Kinds of pause      shown   held   held rate")
        for width in [60, 50] { #expect(table.text(width: width).allSatisfy { CellWidth.of($0) <= width }) }
    }

    @Test func no_line_is_wider_than_the_terminal() {
        let table = KindTable(records: records.merging([.intention: KindRecord(shown: 123_456, exits: 98_765)]) { $1 },
                              held: held.merging([.intention: 97_000]) { $1 }, kinds: PauseKind.allCases)
        for width in [1, 10, 20, 30, 40, 45, 50, 60, 68, 70, 80, 120] {
            let lines = table.text(width: width)
            #expect(lines.allSatisfy { CellWidth.of($0) <= width }, "width \(width): \(lines)")
        }
    }

    @Test func rows_encode_as_fractions_with_snake_case_keys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let counted = KindTable(records: [.type: KindRecord(shown: 3, exits: 1)], held: [:], kinds: [.type, .breathe])
        #expect(String(decoding: try encoder.encode(counted.rows), as: UTF8.self)
            == #"[{"exit_rate":null,"exits":0,"held_exits":0,"held_interval_high":0.95,"held_interval_low":0.05,"held_rate":null,"#
            + #""interval_high":0.95,"interval_low":0.05,"kind":"breathe","shown":0},"#
            + #"{"exit_rate":0.333,"exits":1,"held_exits":0,"held_interval_high":0.527,"held_interval_low":0.013,"held_rate":0,"#
            + #""interval_high":0.751,"interval_low":0.098,"kind":"type","shown":3}]"#)
        // Not counted (breathing alone, nothing compared): null, never left out.
        let uncounted = KindTable(records: [.breathe: KindRecord(shown: 3, exits: 1)], held: nil, kinds: [.breathe])
        #expect(String(decoding: try encoder.encode(uncounted.rows), as: UTF8.self)
            == #"[{"exit_rate":0.333,"exits":1,"held_exits":null,"held_interval_high":null,"held_interval_low":null,"held_rate":null,"#
            + #""interval_high":0.751,"interval_low":0.098,"kind":"breathe","shown":3}]"#)
    }
}
