import Foundation
import TestSupport
import Testing

/// The end of a program a test started is seen when the program ends (`Process.end`, in
/// TestSupport; tested here, beside the tests that rely on it).
@Suite struct ProcessEndTests {
  // NB: Foundation's `isRunning` stays `true` here until the background `sleep` exits too, as
  //     it did when a program a test started inherited another one's descriptor.
  @Test func anExitIsSeenWhileAProcessItStartedHoldsItsDescriptors() async throws {
    try await withTemporaryDirectory { directory in
      let pidFile = directory.file("sleep.pid")
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      shell.arguments = ["-c", #"sleep 60 & echo $! > "$0"; exit 3"#, pidFile.path]
      try shell.run()
      defer {
        if let pid = fileText(pidFile).flatMap({
          pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }) {
          kill(pid, SIGKILL)
        }
      }
      await expectEventually("the shell's end") { shell.end != nil }
      #expect(shell.end?.status == 3)
      #expect(shell.end?.isSignalled == false)
    }
  }

  @Test func aSignalThatEndsAProgramIsSeen() async throws {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "kill -KILL $$"]
    try shell.run()
    let end = shell.waitUntilEnded()
    #expect(end.status == SIGKILL)
    #expect(end.isSignalled)
  }
}
