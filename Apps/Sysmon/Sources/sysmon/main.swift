// sysmon: live readings of the system (load average, uptime, memory), each a
// '@SharedReader' kept current by a custom key that polls a file of /proc.
//
//   swift run sysmon                     prints the readings whenever they change
//   swift run sysmon once                prints them once
//   swift run sysmon --source /tmp/fake  reads fake files instead

import Foundation
import SysmonKit

/// Prints a line now, even when standard output is a pipe or a file.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

/// Prints a message on standard error.
func warn(_ message: String) {
  FileHandle.standardError.write(Data("sysmon: \(message)\n".utf8))
}

let arguments: SysmonArguments
do {
  arguments = try SysmonArguments(parsing: CommandLine.arguments.dropFirst())
} catch {
  warn("\(error)\n\n\(SysmonArguments.usage)")
  exit(64)
}

let monitor = SystemMonitor(directory: arguments.directory, interval: arguments.interval)

switch arguments.command {
case .help:
  say(SysmonArguments.usage)
case .once:
  await monitor.waitUntilLoaded()
  say(monitor.line)
  for error in monitor.errors { warn("\(error)") }
  exit(monitor.errors.isEmpty ? 0 : 1)
case .watch(let duration):
  let end = duration.map { ContinuousClock.now + $0 }
  var shown = (line: "", errors: [String]())
  // NB: The readers are kept current by their key, in the background; this loop only
  //     prints them when they change.
  while end.map({ ContinuousClock.now < $0 }) ?? true {
    let current = (line: monitor.line, errors: monitor.errors.map { "\($0)" })
    if current.errors != shown.errors { current.errors.forEach(warn) }
    if current.line != shown.line { say(current.line) }
    shown = current
    try await Task.sleep(for: .milliseconds(50))
  }
}
