import Foundation
import SysmonKit
import Testing

@Suite struct SysmonArgumentsTests {
  @Test func watchingUntilInterruptedFromProcIsTheDefault() throws {
    let arguments = try SysmonArguments(parsing: [])
    #expect(arguments.command == .watch(for: nil))
    #expect(arguments.directory == URL.proc)
    #expect(arguments.interval == .seconds(1))
  }

  @Test func optionsAreParsed() throws {
    let arguments = try SysmonArguments(
      parsing: ["--seconds", "2.5", "--interval", "0.2", "--source", "/tmp/fake"]
    )
    #expect(arguments.command == .watch(for: .milliseconds(2500)))
    #expect(arguments.interval == .milliseconds(200))
    #expect(arguments.directory.path == "/tmp/fake")
    #expect(try SysmonArguments(parsing: ["once"]).command == .once)
    #expect(try SysmonArguments(parsing: ["once", "-h"]).command == .help)
  }

  @Test(arguments: [
    (["--seconds"], "'--seconds' needs a number of seconds."),
    (["--interval", "0"], "'0' is not a number of seconds between 0 and 86400."),
    (["--interval", "soon"], "'soon' is not a number of seconds between 0 and 86400."),
    (["once", "--seconds", "3"], "'once' takes no '--seconds'."),
    (["once", "once"], "Unexpected argument 'once'."),
    (["--source"], "'--source' needs a path."),
    (["--cpu"], "Unknown option '--cpu'."),
  ])
  func badCommandLinesAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try SysmonArguments(parsing: arguments) }
    #expect(error?.description == message)
  }
}
