import MIGACore
import MIGAKit

extension Miga {
    /// `miga native-host`, or `miga` started by the name `miga-native-host`
    /// (what the browsers' host manifests name, since they start the host
    /// with no words of MIGA's choosing): talks to MIGA's browser extension.
    /// Started by the browser, never by hand, so it is no command of the parser's.
    enum NativeHostCommand {
        static func run(_ arguments: [String]) -> Never {
            Miga.ending { () throws(MigaError) in
                guard let browser = NativeHost.caller(arguments) else {
                    throw MigaError("only MIGA's browser extension talks to miga \(InternalCommand.nativeHost([]).word); the browser starts it",
                                    status: ExitStatus.notPermitted)
                }
                let host = NativeHost(context: GatewayContext(environment: processEnvironment(), terminal: nil), browser: browser)
                return host.serve(input: 0, output: 1)
            }
        }
    }
}
