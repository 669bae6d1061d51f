import Dispatch
import SharingDependencies

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Ends the program with `exit` on Ctrl-C (`SIGINT`) and `SIGTERM`, so that the writes
/// `fileStorage` still has pending are flushed: it writes them in an `atexit` handler, which
/// a signal's default action would skip.
public enum Termination {
  private static let queue = DispatchQueue(label: "todos.termination")
  private static let sources = Locked<[any DispatchSourceSignal]>([])

  /// Exits on `SIGINT` and `SIGTERM` from now on.
  ///
  /// The signals are handled on a private queue, never the main one, which a command-line
  /// program does not run.
  ///
  /// - Parameter status: The exit status; by default `128 + signal`, the shell's status for
  ///   a program a signal ended (130 for Ctrl-C).
  public static func exitOnSignals(status: Int32? = nil) {
    sources.withLock { sources in
      for signalNumber in [SIGINT, SIGTERM] {
        // NB: Ignored, so that the signal is only delivered to the source below.
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
        source.setEventHandler { exit(status ?? 128 + signalNumber) }
        source.resume()
        sources.append(source)
      }
    }
  }
}
