import CommandLineSupport
import Foundation
import SysmonKit
import Testing

@Suite struct SysmonArgumentsTests {
  @Test func watchingUntilInterruptedFromProcIsTheDefault() throws {
    let arguments = try #require(try SysmonArguments.parse([]))
    #expect(arguments.command == .watch(for: nil))
    #expect(arguments.directory == URL.proc)
    #expect(arguments.interval == .seconds(1))
  }

  @Test func optionsAreParsed() throws {
    let arguments = try #require(
      try SysmonArguments.parse(
        ["--seconds", "2.5", "--interval", "0.2", "--source", "/tmp/fake"]
      )
    )
    #expect(arguments.command == .watch(for: .milliseconds(2500)))
    #expect(arguments.interval == .milliseconds(200))
    #expect(arguments.directory.path == "/tmp/fake")
    #expect(try SysmonArguments.parse(["once"])?.command == .once)
    #expect(try SysmonArguments.parse(["once", "-h"]) == nil)
  }

  @Test(arguments: [
    (["--seconds"], "'--seconds' needs a number of seconds."),
    (
      ["--seconds", "0"],
      "'--seconds' must be a number of seconds above 0 and at most 86400 (a day); '0' is not."
    ),
    (
      ["--interval", "soon"],
      "'--interval' must be a number of seconds above 0 and at most 86400 (a day); 'soon' is not."
    ),
    (
      ["--interval", "-1"],
      "'--interval' must be a number of seconds above 0 and at most 86400 (a day); '-1' is not."
    ),
    (["once", "--seconds", "3"], "'once' takes no '--seconds'."),
    (["once", "once"], "Unexpected argument 'once'."),
    (["now"], "Unexpected argument 'now'."),
    (["--source"], "'--source' needs a path."),
    (["--cpu"], "Unknown option '--cpu'."),
  ])
  func badCommandLinesAreExplained(arguments: [String], message: String) {
    let error = #expect(throws: UsageError.self) { try SysmonArguments.parse(arguments) }
    #expect(error?.description == message)
  }
}
