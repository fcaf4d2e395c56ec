/// The marks a gateway leaves in the environment of the program it starts,
/// which exec keeps and every child inherits: how a later gateway knows it was
/// started from one, and how the leak watch tells a launch through the pause
/// from one around it.
package enum GateMarks {
    /// Set before exec to the gateway's pid, which exec keeps: a gateway that
    /// finds its own pid here was started straight from another gateway, in
    /// the same launch (a second gateway on PATH, or two pointing at each other).
    package static let launch = "MIGA_GATE_PID"
    /// Set with it: the protected program the gateway opened, so that the
    /// leak watch tells that program's processes from another protected
    /// program started from inside it.
    package static let program = "MIGA_GATE_PROGRAM"
    /// How many gateways this launch has passed through.
    package static let hops = "MIGA_GATE_HOPS"
}
