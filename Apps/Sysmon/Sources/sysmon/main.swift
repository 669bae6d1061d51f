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
let monitor = SystemMonitor(directory: arguments.directory, interval: arguments.interval)

switch arguments.command {
case .once:
  await monitor.waitUntilLoaded()
  terminal.say(monitor.line)
  for error in monitor.errors { terminal.warn("\(error)") }
  terminal.exit(monitor.errors.isEmpty ? .success : .failure)
case .watch(let duration):
  let end = duration.map { ContinuousClock.now + $0 }
  var shown = (line: "", errors: [String]())
  // NB: The readers are kept current by their key, in the background; this loop only
  //     prints them when they change.
  while end.map({ ContinuousClock.now < $0 }) ?? true {
    let current = (line: monitor.line, errors: monitor.errors.map { "\($0)" })
    if current.errors != shown.errors { current.errors.forEach(terminal.warn) }
    if current.line != shown.line { terminal.say(current.line) }
    shown = current
    try await Task.sleep(for: .milliseconds(50))
  }
}
