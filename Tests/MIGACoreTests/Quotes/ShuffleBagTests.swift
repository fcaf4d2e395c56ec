import Foundation
import Testing
@testable import MIGACore

@Suite struct ShuffleBagTests {
    let pool = (1...40).map { "q\($0)" }

    @Test func every_quote_comes_once_before_any_comes_again() {
        var bag = ShuffleBag()
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<3 {
            let round = (0..<pool.count).compactMap { _ in bag.draw(from: pool, using: &generator) }
            #expect(Set(round).count == pool.count)
        }
    }

    @Test func a_new_round_never_opens_with_what_was_just_shown() {
        for seed in 0..<200 as Range<UInt64> {
            var bag = ShuffleBag()
            var generator = SeededGenerator(seed: seed)
            let first = (0..<pool.count).compactMap { _ in bag.draw(from: pool, using: &generator) }
            let next = (0..<8).compactMap { _ in bag.draw(from: pool, using: &generator) }
            #expect(Set(first.suffix(8)).isDisjoint(with: next), "seed \(seed)")
        }
    }

    @Test func a_tiny_pool_still_avoids_an_immediate_repeat() {
        for seed in 0..<100 as Range<UInt64> {
            var bag = ShuffleBag()
            var generator = SeededGenerator(seed: seed)
            var previous: String?
            for _ in 0..<12 {
                let id = bag.draw(from: ["a", "b", "c"], using: &generator)
                #expect(id != previous)
                previous = id
            }
        }
    }

    @Test func the_bag_survives_being_saved_and_loaded() throws {
        var bag = ShuffleBag()
        var generator = SeededGenerator(seed: 9)
        let firstHalf = (0..<20).compactMap { _ in bag.draw(from: pool, using: &generator) }
        var restored = try #require(ShuffleBag(encoded: bag.encoded))
        #expect(restored == bag)
        let secondHalf = (0..<20).compactMap { _ in restored.draw(from: pool, using: &generator) }
        #expect(Set(firstHalf + secondHalf).count == 40)
    }

    @Test func a_different_pool_starts_a_new_round() {
        var bag = ShuffleBag()
        var generator = SeededGenerator(seed: 3)
        _ = bag.draw(from: pool, using: &generator)
        let smaller = Array(pool.prefix(5))
        let drawn = (0..<5).compactMap { _ in bag.draw(from: smaller, using: &generator) }
        #expect(Set(drawn) == Set(smaller))
    }

    @Test func the_same_seed_gives_the_same_order() {
        var a = ShuffleBag(), b = ShuffleBag()
        var ga = SeededGenerator(seed: 5), gb = SeededGenerator(seed: 5)
        let orderA = (0..<10).compactMap { _ in a.draw(from: pool, using: &ga) }
        let orderB = (0..<10).compactMap { _ in b.draw(from: pool, using: &gb) }
        #expect(orderA == orderB)
        #expect(orderA != Array(pool.prefix(10)))
    }

    @Test func text_that_is_not_a_bag_is_refused() {
        #expect(ShuffleBag(encoded: "") == nil)
        #expect(ShuffleBag(encoded: "seed x\nposition 1\nfingerprint 2") == nil)
        #expect(ShuffleBag(encoded: ShuffleBag().encoded) == ShuffleBag())
    }

    @Test func an_empty_pool_draws_nothing() {
        var bag = ShuffleBag()
        var generator = SeededGenerator(seed: 1)
        #expect(bag.draw(from: [], using: &generator) == nil)
    }
}
