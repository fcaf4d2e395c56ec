import MIGACore
import MIGAKit

extension Miga {
    /// `miga native-host`, or `miga` started by the name `miga-native-host`
    /// (what the browsers' host manifests name, since they start the host
    /// with no words of MIGA's choosing): talks to MIGA's browser extension.
    /// Started by the browser, never by hand, so it is no command of the parser's.
    enum NativeHostCommand {
        static func run(_ arguments: [String]) -> Never {
            guard let browser = NativeHost.caller(arguments) else {
                printError("miga native-host: only MIGA's browser extension talks to the host; the browser starts it")
                endProcess(ExitStatus.notPermitted)
            }
            let host = NativeHost(context: GatewayContext(environment: processEnvironment(), terminal: nil), browser: browser)
            endProcess(host.serve(input: 0, output: 1))
        }
    }
}
