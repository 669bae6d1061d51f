// flags: feature flags in PostgreSQL, shared live by every process on every machine.
//
//   swift run flags set beta on       beta: on
//   swift run flags list              beta: on
//   swift run flags watch             beta: on, then every change as anyone makes it

import FlagsKit
import Foundation
import SharingCore
import SharingDependencies
import SharingPostgres

/// Prints a line on standard output at once, even when it is a file.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

/// Prints a message on standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
  FileHandle.standardError.write(Data("flags: \(message)\n".utf8))
  exit(status)
}

let arguments: FlagsArguments
do {
  arguments = try FlagsArguments(parsing: CommandLine.arguments.dropFirst())
} catch {
  fail("\(error)\n\n\(FlagsArguments.usage)", status: 64)
}

if arguments.command == .help {
  say(FlagsArguments.usage)
  exit(0)
}

prepareDependencies {
  $0.defaultPostgresDatabase = .server(arguments.connectionString, table: arguments.table)
}
let flags = FeatureFlags()
if let error = flags.loadError { fail("Cannot read the flags: \(error)") }

switch arguments.command {
case .set(let name, let isOn):
  do {
    try flags.set(name, isOn: isOn)
  } catch {
    fail("Cannot set '\(name)': \(error)")
  }
  say("\(name): \(isOn ? "on" : "off")")
case .list, .help:
  say(flags.listing)
case .watch:
  var shown = flags.flags
  say(FeatureFlags.listing(shown))
  say("Watching for changes (Ctrl-C to stop)…")
  for await current in flags.$flags.values {
    FeatureFlags.changes(from: shown, to: current).forEach(say)
    shown = current
  }
}
