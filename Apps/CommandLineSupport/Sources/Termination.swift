import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Ends the program with `exit` on Ctrl-C (`SIGINT`) and `SIGTERM`, with the shell's status
/// for a program a signal ended: `128 + signal`, 130 for Ctrl-C, 143 for `SIGTERM`.
///
/// ```swift
/// Termination.exitOnSignals()   // first thing in main.swift
/// ```
///
/// Ending through `exit` runs the program's `atexit` handlers, which a signal's default
/// action would skip: `fileStorage`, `appStorage` and `postgres` write the changes they still
/// have pending there.
public enum Termination {
  /// Exits on `SIGINT` and `SIGTERM` from now on. Calling it again has no effect.
  ///
  /// The signals are handled on a private queue, never the main one, which a command-line
  /// program does not run.
  public static func exitOnSignals() {
    _ = sources
  }

  private static let sources = SignalSources(
    [SIGINT, SIGTERM],
    queue: DispatchQueue(label: "CommandLineSupport.Termination")
  ) { signalNumber in
    // NB: The shell starts its prompt where the program stopped writing: after an
    //     unanswered prompt, that is on the prompt's line, unless a line is ended first.
    if isatty(STDERR_FILENO) == 1 { _ = write(STDERR_FILENO, "\n", 1) }
    exit(128 + signalNumber)
  }
}

/// Signal sources, kept for as long as the program runs.
// NB: '@unchecked': no lock is needed, as the sources are only kept, never used after 'init'.
private final class SignalSources: @unchecked Sendable {
  private let sources: [any DispatchSourceSignal]

  init(_ signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
    sources = signals.map { signalNumber in
      // NB: Ignored, so that the signal is only delivered to the source below.
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
      source.setEventHandler { handler(signalNumber) }
      source.resume()
      return source
    }
  }
}
