import FoundationEssentials
import MIGACore
import MIGAConfig

extension GateFacts {
    /// The facts of a launch of the program, or a visit of the site, that
    /// `settings` protect: the one place a program's or a site's settings
    /// become facts for the verdict, so that the two are decided alike.
    /// The store's answer is left unread, for the store to read when the
    /// verdict asks.
    init(_ settings: ProgramSettings, now: Date, zone: LocalZone, front: Front, hops: Int = 0, wantsWindow: Bool = false,
         loginStart: Bool = false) {
        self.init(hops: hops, now: now, focusHours: settings.hours, zone: zone, front: front, wantsWindow: wantsWindow,
                  loginStart: loginStart, withoutTerminal: settings.nonInteractive, loginPolicy: settings.atLogin,
                  allowance: settings.allowance)
    }
}
