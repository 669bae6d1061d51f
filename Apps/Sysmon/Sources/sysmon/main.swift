// sysmon: live readings of the system (load average, uptime, memory), each a
// '@SharedReader' kept current by a custom key that polls a file of /proc.
//
//   swift run sysmon                     prints the readings whenever they change
//   swift run sysmon once                prints them once
//   swift run sysmon --source /tmp/fake  reads fake files instead

import CommandLineSupport
import SysmonKit

let terminal = Terminal(program: "sysmon")
let arguments = SysmonArguments.parseOrExit(on: terminal)
Termination.exitOnSignals()
do {
  try SystemMonitor.checkSource(arguments.directory)
} catch {
  terminal.fail("\(error)")
}
let monitor = SystemMonitor(directory: arguments.directory, interval: arguments.interval)

// The first readings are shown alike in both modes: readings that cannot be made end the
// program with a failure, as 'once' does, rather than be watched.
await monitor.waitUntilLoaded()
var shown = (line: monitor.line, errors: monitor.errors.map { "\($0)" })
terminal.say(shown.line)
shown.errors.forEach(terminal.warn)
guard case .watch(let duration) = arguments.command, shown.errors.isEmpty else {
  terminal.exit(shown.errors.isEmpty ? .success : .failure)
}

let end = duration.map { ContinuousClock.now + $0 }
// The readers are kept current by their key, in the background; this loop only prints them
// when they change, and each new error once.
while end.map({ ContinuousClock.now < $0 }) ?? true {
  try await Task.sleep(for: .milliseconds(50))
  let current = (line: monitor.line, errors: monitor.errors.map { "\($0)" })
  current.errors.filter { !shown.errors.contains($0) }.forEach(terminal.warn)
  if current.line != shown.line { terminal.say(current.line) }
  shown = current
}
terminal.exit(shown.errors.isEmpty ? .success : .failure)
