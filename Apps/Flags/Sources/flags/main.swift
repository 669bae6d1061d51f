// flags: feature flags in PostgreSQL, shared live by every process on every machine.
//
//   swift run flags set beta on       beta: on
//   swift run flags list              beta: on
//   swift run flags watch             beta: on, then every change as anyone makes it

import CommandLineSupport
import FlagsKit
import SharingCore
import SharingDependencies
import SharingPostgres

let terminal = Terminal(program: "flags")
let arguments = FlagsArguments.parseOrExit(on: terminal)

prepareDependencies {
  $0.defaultPostgresDatabase = .server(arguments.connectionString, table: arguments.table)
}
let flags = FeatureFlags()
await flags.load()
if let error = flags.loadError { terminal.fail("Cannot read the flags: \(error)") }

switch arguments.command {
case .set(let name, let isOn):
  do {
    try flags.set(name, isOn: isOn)
  } catch {
    terminal.fail("Cannot set '\(name)': \(error)")
  }
  terminal.say("\(name): \(isOn ? "on" : "off")")
case .list:
  terminal.say(flags.listing)
case .watch:
  var shown = flags.flags
  terminal.say(FeatureFlags.listing(shown))
  terminal.say("Watching for changes (Ctrl-C to stop)…")
  for await current in flags.$flags.values {
    FeatureFlags.changes(from: shown, to: current).forEach(terminal.say)
    shown = current
  }
}
