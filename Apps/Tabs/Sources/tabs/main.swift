// tabs: the shared state case study as a prompt. A counter tab and a profile tab each hold
// the same '@Shared var stats: Stats'; counting on one shows on the other.
//
//   swift run tabs                                   type commands; 'help' lists them
//   printf '+\n+\nprime\ntab profile\n' | swift run tabs

import Foundation
import SharingCore
import TabsKit

/// Writes text to standard output at once, so that the prompt shows before the input.
func write(_ text: String) {
  FileHandle.standardOutput.write(Data(text.utf8))
}

let usage = """
  Usage: tabs

  A counter tab and a profile tab sharing their statistics. Reads commands from
  standard input, one per line, so it also runs from a file or a pipe.

  \(TabsCommand.list)
  """

switch Array(CommandLine.arguments.dropFirst()) {
case []:
  break
case ["-h"], ["--help"]:
  write("\(usage)\n")
  exit(0)
case let arguments:
  FileHandle.standardError.write(
    Data("tabs: Unexpected argument '\(arguments[0])'.\n\n\(usage)\n".utf8)
  )
  exit(64)
}

// NB: Piped commands are echoed after the prompt, so the output reads like a session.
let echoesInput = isatty(STDIN_FILENO) == 0
var session = TabsSession(tabs: TabsFeature(stats: Shared(value: Stats())))
write("Two tabs share one '@Shared var stats'. Type 'help' for the commands.\n\n")
write("\(TabsScreen.render(session.tabs))\n")
while true {
  write("> ")
  guard let line = readLine() else {
    write("\n")
    break
  }
  if echoesInput { write("\(line)\n") }
  let reply = session.handle(line)
  if let error = reply.error { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
  if !reply.output.isEmpty { write("\(reply.output)\n") }
  if reply.quits { break }
}
