import MIGACore
import MIGAStore
import MIGAConfig

extension Aftercare {
    /// "Not this kind" (`Ctrl-N` on the pause): `kind` leaves the program's
    /// own kinds in the config, so that it is out of its draw until
    /// `miga protect PROG --kinds …` brings it back, and the store records it.
    func decline(_ kind: PauseKind, for settings: ProgramSettings, store: SessionStore?, notices: inout [String]) {
        let kinds = config.kinds(for: settings).filter { $0 != kind }
        guard !kinds.isEmpty else { return }
        do {
            try ConfigEditor(path: paths.configFile).setProgram(settings.command, .kinds(kinds))
            try store?.declineKind(kind, program: settings.command, at: context.time.now())
        } catch {
            notices.append("\(kind.rawValue) could not be taken out of \(printable(settings.displayName))'s kinds (\(error))")
        }
    }
}
