// tabs: the shared state case study as a prompt. A counter tab and a profile tab each hold
// the same '@Shared var stats: Stats'; counting on one shows on the other.
//
//   swift run tabs                                   type commands; 'help' lists them
//   printf '+\n+\nprime\ntab profile\n' | swift run tabs

import CommandLineSupport
import Foundation
import SharingCore
import TabsKit

let terminal = Terminal(program: "tabs")
_ = TabsArguments.parseOrExit(on: terminal)
Termination.exitOnSignals()

// NB: Piped commands are echoed after the prompt, so the output reads like a session.
let echoesInput = isatty(STDIN_FILENO) == 0
var session = TabsSession(tabs: TabsFeature(stats: Shared(value: Stats())))
terminal.write("Two tabs share one '@Shared var stats'. Type 'help' for the commands.\n\n")
terminal.say(TabsScreen.render(session.tabs))
while true {
  terminal.write("> ")
  guard let line = readLine() else {
    terminal.write("\n")
    break
  }
  if echoesInput { terminal.say(line) }
  let reply = session.handle(line)
  if let error = reply.error { terminal.warn("\(error)") }
  if !reply.output.isEmpty { terminal.say(reply.output) }
  if reply.quits { break }
}
