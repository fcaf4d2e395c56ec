/// Setup's "Sites in your browser", answered yes: what `miga browser setup`
/// does, each browser's line (and what is left to the person) among what was done.
extension SetupApplier {
    func equipBrowsers(done: inout [String], problems: inout [String]) {
        let report = BrowserSetup(protection: protection).run()
        if let change = report.linkChange { done.append(change) }
        for outcome in report.outcomes {
            let line = BrowserSetupReport.line(outcome)
            if case .failed = outcome.state {
                problems.append(line)
            } else {
                done.append(([line] + outcome.advice.map { "    " + $0 }).joined(separator: "\n"))
            }
        }
    }
}
