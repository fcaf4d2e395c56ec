import Foundation
import Testing
@testable import MIGACore
@testable import MIGAKit
@testable import MIGAConfig

/// What `miga stats` says MIGA favours, over simulated people's first 120
/// days: four pauses a day, each one's kind chosen by the learner
/// (`KindChooser`, from its evidence weighed as the store weighs it that
/// moment), its end drawn from the person's true rates of exits that held, and
/// the favourite (`KindFavourite`, as the stats count it) asked after every
/// pause. Seeded: the same every run.
@Suite struct FavouriteSimulationTests {
    static let kinds: [PauseKind] = [.breathe, .type]
    static let days = 120
    /// 08:00, 12:00, 16:00 and 20:00 UTC, as fractions of a day.
    static let pauseTimes = [8.0, 12, 16, 20].map { $0 / 24 }
    static let firstDay = 20_600
    static let halfLife = KindEvidence.defaultHalfLifeDays
    static let people = 500

    /// One person's days: the kind named after every pause (nil: none).
    struct Person {
        var said: [PauseKind?] = []
        /// Every pause, as the store gives them to the stats.
        var pauses: [LearnedPause] = []
        /// How many pauses ended in an exit that held.
        var held: Int { pauses.filter(\.succeeded).count }

        /// Whether `kind` (any kind, when nil) was ever named.
        func wasTold(_ kind: PauseKind? = nil) -> Bool { said.contains { $0 != nil && (kind == nil || $0 == kind) } }

        /// Whether `kind` was named within the first `days` days.
        func wasTold(_ kind: PauseKind, within days: Int) -> Bool {
            said.prefix(days * FavouriteSimulationTests.pauseTimes.count).contains(kind)
        }

        /// How often what is said changed from one pause to the next.
        var changes: Int { zip([nil] + said, said).filter { $0 != $1 }.count }
    }

    /// The learner's evidence as the store weighs it at `time` (a fraction of
    /// the day): the days before today kept as of this midnight, today's
    /// pauses beside them. The same sums as `KindEvidence.discounted`, kept as
    /// the days go by rather than added up again at every pause.
    struct Memory {
        var beforeToday: [PauseKind: KindEvidence] = [:]
        var today: [PauseKind: KindEvidence] = [:]

        func evidence(at time: Double) -> [PauseKind: KindEvidence] {
            let halfLife = FavouriteSimulationTests.halfLife
            let past = pow(0.5, time / halfLife), present = pow(0.5, max(0, time - 0.5) / halfLife)
            var evidence: [PauseKind: KindEvidence] = [:]
            for (kinds, weight) in [(beforeToday, past), (today, present)] {
                for (kind, entry) in kinds {
                    evidence[kind, default: KindEvidence()].shown += weight * entry.shown
                    evidence[kind, default: KindEvidence()].successes += weight * entry.successes
                    evidence[kind, default: KindEvidence()].pauses += entry.pauses
                }
            }
            return evidence
        }

        mutating func count(_ kind: PauseKind, succeeded: Bool) {
            today[kind, default: KindEvidence()].shown += 1
            today[kind, default: KindEvidence()].successes += succeeded ? 1 : 0
            today[kind, default: KindEvidence()].pauses += 1
        }

        /// Midnight: today's pauses join the days before, all a day older.
        mutating func endDay() {
            beforeToday = evidence(at: 1)
            today = [:]
        }
    }

    /// One simulated person with these true rates of exits that held.
    /// `seeking`: whether the learner seeks a favourite while none is named,
    /// as the gateway's does; without, the ordinary learner it replaces.
    static func person(_ rates: [PauseKind: Double], seed: UInt64, seeking: Bool = true) -> Person {
        var generator = SeededGenerator(seed: seed)
        var memory = Memory()
        var person = Person()
        var last: PauseKind?
        // Counted pause by pause: the same counting `miga stats` does over the whole history at once.
        var favourite = KindFavourite(among: kinds)
        for _ in 0..<days {
            for time in pauseTimes {
                let kind = KindChooser.choose(among: kinds, rotation: .adaptive, evidence: memory.evidence(at: time), last: last,
                                              seekingFavourite: seeking && favourite.isSought, using: &generator).kind
                let succeeded = BetaDistribution.uniform(using: &generator) < rates[kind, default: 0]
                memory.count(kind, succeeded: succeeded)
                last = kind
                person.pauses.append(LearnedPause(kind: kind, succeeded: succeeded))
                favourite.count(person.pauses.last!)
                person.said.append(favourite.named)
            }
            memory.endDay()
        }
        return person
    }

    /// `people` people with these rates, each with their own seed.
    static func simulate(_ rates: [PauseKind: Double], seed: UInt64, seeking: Bool = true) -> [Person] {
        let people = (0..<UInt64(people)).map { person(rates, seed: seed &* 1_000_003 &+ $0, seeking: seeking) }
        // What the stats would say at the end, from the whole history, is what was said after the last pause.
        let inUse = KindsInUse(kinds: kinds, rotation: .adaptive)
        for person in people.prefix(50) { #expect(KindTable.favourite(after: person.pauses, among: inUse) == person.said.last!) }
        return people
    }

    static func share(_ people: [Person], _ told: (Person) -> Bool) -> Double {
        Double(people.filter(told).count) / Double(people.count)
    }

    // Each population simulated once, for every test that asks about it.
    static let equalAtTwenty = simulate([.breathe: 0.2, .type: 0.2], seed: 20)
    static let equalAtThirtyFive = simulate([.breathe: 0.35, .type: 0.35], seed: 35)
    static let equalAtFifty = simulate([.breathe: 0.5, .type: 0.5], seed: 50)
    static let tenPointsApart = simulate([.breathe: 0.3, .type: 0.4], seed: 3040)
    static let twentyPointsApart = simulate([.breathe: 0.25, .type: 0.45], seed: 2545)
    // The same people with the ordinary learner, which never seeks a favourite: what seeking costs.
    static let tenPointsApartUnsought = simulate([.breathe: 0.3, .type: 0.4], seed: 3040, seeking: false)
    static let twentyPointsApartUnsought = simulate([.breathe: 0.25, .type: 0.45], seed: 2545, seeking: false)

    @Test(arguments: [20, 35, 50])
    func with_equal_kinds_hardly_anyone_is_ever_told_of_a_favourite(percent: Int) {
        let people = [20: Self.equalAtTwenty, 35: Self.equalAtThirtyFive, 50: Self.equalAtFifty][percent]!
        let told = Self.share(people) { $0.wasTold() }
        #expect(told < 0.05, "\(told * 100) % were told of a favourite at some pause")
    }

    @Test func with_kinds_ten_points_apart_almost_nobody_is_ever_told_the_worse_one() {
        let worse = Self.share(Self.tenPointsApart) { $0.wasTold(.breathe) }
        #expect(worse < 0.01, "\(worse * 100) % were told the worse kind at some pause")
    }

    @Test func with_kinds_twenty_points_apart_most_are_told_the_better_one_within_six_weeks() {
        let people = Self.twentyPointsApart
        let withinSixWeeks = Self.share(people) { $0.wasTold(.type, within: 42) }
        let withinFourMonths = Self.share(people) { $0.wasTold(.type, within: Self.days) }
        #expect(withinSixWeeks > 0.5, "\(withinSixWeeks * 100) % were told the better kind within six weeks")
        #expect(withinFourMonths > 0.85, "\(withinFourMonths * 100) % were told the better kind within 120 days")
        #expect(Self.share(people) { $0.wasTold(.breathe) } < 0.01)
        // Without seeking, the learner soon shows the worse kind on about one pause in ten: too few to tell it is worse.
        let unsought = Self.share(Self.twentyPointsApartUnsought) { $0.wasTold(.type, within: 42) }
        #expect(unsought < 0.4, "\(unsought * 100) % were told the better kind within six weeks by the ordinary learner")
    }

    @Test(arguments: [10, 20])
    func seeking_a_favourite_costs_few_exits_that_held(pointsApart: Int) {
        let (sought, unsought) = pointsApart == 10 ? (Self.tenPointsApart, Self.tenPointsApartUnsought)
            : (Self.twentyPointsApart, Self.twentyPointsApartUnsought)
        let held = Double(sought.map(\.held).reduce(0, +)), ordinary = Double(unsought.map(\.held).reduce(0, +))
        let cost = 1 - held / ordinary
        // Each kind has its share of pauses until the favourite is named or has had enough: some exits that held
        // are given up while the worse kind is shown more, never many.
        #expect(cost > 0 && cost < 0.06, "seeking cost \(cost * 100) % of the exits that held in 120 days")
    }

    @Test func what_is_said_does_not_flicker() {
        for people in [Self.equalAtTwenty, Self.equalAtThirtyFive, Self.equalAtFifty, Self.tenPointsApart, Self.twentyPointsApart] {
            let most = people.map(\.changes).max() ?? 0
            // Named, dropped when the lead came into doubt, named again once it was clear: no more.
            #expect(most <= 3, "a person's favourite changed \(most) times in 120 days")
        }
    }

    @Test func the_simulated_memory_weighs_as_the_store_does() {
        // Forty days of one person, checked against KindEvidence.discounted over the same days at every pause.
        var generator = SeededGenerator(seed: 40)
        var memory = Memory()
        var learned: [LearnedDay] = []
        for day in 0..<40 {
            for time in Self.pauseTimes {
                let kind = Self.kinds[Int(BetaDistribution.uniform(using: &generator) * 2)]
                let succeeded = BetaDistribution.uniform(using: &generator) < 0.4
                memory.count(kind, succeeded: succeeded)
                learned.append(LearnedDay(kind: kind, day: Self.firstDay + day, shown: 1, successes: succeeded ? 1 : 0))
                let now = Date(timeIntervalSince1970: (Double(Self.firstDay + day) + time) * 86_400)
                let stored = KindEvidence.discounted(learned, now: now, halfLifeDays: Self.halfLife)
                let simulated = memory.evidence(at: time)
                for kind in Self.kinds {
                    let (one, other) = (stored[kind] ?? KindEvidence(), simulated[kind] ?? KindEvidence())
                    #expect(abs(one.shown - other.shown) < 1e-9 && abs(one.successes - other.successes) < 1e-9 && one.pauses == other.pauses)
                }
            }
            memory.endDay()
        }
    }
}
