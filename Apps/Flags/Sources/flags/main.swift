// flags: feature flags in PostgreSQL, shared live by every process on every machine.
//
//   swift run flags set beta on       beta: on
//   swift run flags list              beta: on
//   swift run flags watch             beta: on, then every change as anyone makes it
//
// To try it, start a throwaway server first: eval "$(scripts/start-postgres)".

import CommandLineSupport
import FlagsKit
import SharingCore
import SharingDependencies
import SharingPostgres

let terminal = Terminal(program: "flags")
let arguments = FlagsArguments.parseOrExit(on: terminal)
Termination.exitOnSignals()

prepareDependencies {
  $0.defaultPostgresDatabase = .server(arguments.connectionString, table: arguments.table)
}

/// An error of the flags, in one line.
func problem(_ error: any Error) -> FlagsProblem {
  FlagsProblem(error, table: arguments.table)
}

if arguments.command == .reset {
  do {
    try await FeatureFlags.removeAll()
  } catch {
    terminal.fail("Cannot reset the flags: \(problem(error))")
  }
  terminal.say(FeatureFlags.listing([:]))
  terminal.exit(.success)
}

let flags = FeatureFlags()
await flags.load()
if let error = flags.loadError { terminal.fail("Cannot read the flags: \(problem(error))") }

switch arguments.command {
case .set(let name, let isOn):
  do {
    try flags.set(name, isOn: isOn)
  } catch {
    terminal.fail("Cannot set '\(name)': \(problem(error))")
  }
  terminal.say("\(name): \(isOn ? "on" : "off")")
case .list, .reset:
  terminal.say(flags.listing)
case .watch:
  var shown = flags.flags
  var shownProblem: FlagsProblem?
  terminal.say(FeatureFlags.listing(shown))
  terminal.say("Watching for changes (Ctrl-C to stop)…")
  // The flags are kept current by their key, in the background; this loop only shows what
  // changed: the flags, or whether they can be read.
  while true {
    try await Task.sleep(for: .milliseconds(50))
    // The error first: a load stores its value before it clears the error, so flags read after
    // a cleared error are the loaded ones, never those from before the error.
    let readProblem = flags.loadError.map(problem)
    let current = (flags: flags.flags, problem: readProblem)
    if let problem = current.problem, problem != shownProblem {
      terminal.warn("Cannot read the flags: \(problem)")
    } else if current.problem == nil, shownProblem != nil {
      terminal.say(FeatureFlags.listing(current.flags))
    } else {
      FeatureFlags.changes(from: shown, to: current.flags).forEach(terminal.say)
    }
    (shown, shownProblem) = current
  }
}
