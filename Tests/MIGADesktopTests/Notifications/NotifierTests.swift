import Foundation
import Testing
@testable import MIGADesktop
@testable import MIGATestSupport

@Suite struct NotifierTests {
    @Test func a_result_that_never_comes_times_out_at_the_deadline() {
        let pending = PendingNotification()
        let started = Date()
        #expect(pending.wait(seconds: 0.2) == .timedOut)
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.15 && waited < 5)
    }

    @Test func a_result_that_comes_in_time_is_returned() {
        let pending = PendingNotification()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { pending.finish(.delivered) }
        #expect(pending.wait(seconds: 5) == .delivered)
        #expect(pending.wait(seconds: 0) == .delivered)
    }
}
