/// How a command ends: the exit status every example app uses for the same outcome.
public enum ExitStatus: Int32, Sendable {
  /// It did what was asked.
  case success = 0
  /// It could not: a file, the system or the input did not allow it.
  case failure = 1
  /// The command line does not fit the usage (`EX_USAGE` in `sysexits.h`).
  case usage = 64
}
