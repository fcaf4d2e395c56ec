import Testing
@testable import MIGACore

/// How sure MIGA is that a kind of pause works best: the share of joint
/// draws from the kinds' posteriors in which it comes out on top.
@Suite struct ChanceOfBeingBestTests {
    func chances(_ records: [PauseKind: KindRecord], _ kinds: [PauseKind]) -> [PauseKind: Double] {
        KindRecord.chancesOfBeingBest(records, among: kinds)
    }

    @Test func a_clear_difference_over_a_hundred_pauses_each_is_near_certain() throws {
        let found = chances([.breathe: KindRecord(shown: 100, exits: 40), .type: KindRecord(shown: 100, exits: 20)], [.breathe, .type])
        #expect(try #require(found[.breathe]) > 0.99)
        #expect(abs((found[.breathe] ?? 0) + (found[.type] ?? 0) - 1) < 1e-9)
    }

    @Test func one_lucky_pause_is_no_certainty() throws {
        // 1 of 1 against 40 of 100: Beta(2, 1) is above Beta(41, 61) about 82 % of the time, by chance alone.
        let found = chances([.breathe: KindRecord(shown: 100, exits: 40), .intention: KindRecord(shown: 1, exits: 1)], [.breathe, .intention])
        #expect(try #require(found[.intention]) > 0.7 && found[.intention]! < 0.9, "\(found)")
    }

    @Test func even_records_split_evenly_and_an_unseen_kind_could_be_best() throws {
        let even = chances([.breathe: KindRecord(shown: 30, exits: 12), .type: KindRecord(shown: 30, exits: 12)], [.breathe, .type])
        #expect(abs(try #require(even[.breathe]) - 0.5) < 0.05)
        // Never shown: its uniform prior beats 12 of 40 more often than not.
        let unseen = chances([.breathe: KindRecord(shown: 40, exits: 12)], [.breathe, .type])
        #expect(try #require(unseen[.type]) > 0.6)
    }

    @Test func the_same_records_give_the_same_chances() {
        let records = [PauseKind.breathe: KindRecord(shown: 30, exits: 12), .type: KindRecord(shown: 30, exits: 10), .intention: KindRecord(shown: 5, exits: 2)]
        #expect(chances(records, [.breathe, .type, .intention]) == chances(records, [.breathe, .type, .intention]))
    }
}
