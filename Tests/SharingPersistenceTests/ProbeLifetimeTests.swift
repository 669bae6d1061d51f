import Foundation
import TestSupport
import Testing

/// The helper programs the tests start never outlive the process that started them, even
/// when it crashes (`exitWhenTheParentExits()`, in TestSupport; tested here, where the
/// `PersistenceProbe` executable is built).
@Suite struct ProbeLifetimeTests {
  #if os(Linux)
    @Test func aProbeExitsWhenTheProcessThatStartedItIsGone() async throws {
      let probe = try #require(ProbeProgram("PersistenceProbe").executable)
      try await withTemporaryDirectory { directory in
        let pidFile = directory.file("probe.pid")
        // NB: A shell stands for a test process that crashes: it starts a probe that writes
        //     until it is stopped, naming itself as its parent as a test process does (so that
        //     a probe slow to start, after the shell exited, exits too), and exits a second
        //     later without stopping it.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = [
          "-c",
          "\(ProbeProgram.parentVariable)=$$ "
            + #""$0" file-write-loop "$1" "$2" & echo $! > "$3"; sleep 1"#,
          probe.path, directory.file("payload.json").path, directory.file("acks").path,
          pidFile.path,
        ]
        shell.environment = ProbeProgram.environment
        try shell.run()
        // NB: Not 'isRunning': Foundation waits for a descriptor the probe inherited.
        await expectEventually("the shell to exit") { shell.end != nil }
        let written = fileText(pidFile)?.trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(written.flatMap { pid_t($0) })
        await expectEventually("the orphaned probe to exit") { !isRunning(pid) }
        // NB: Only while it runs: once reaped, its identifier may be another process's.
        if isRunning(pid) { kill(pid, SIGKILL) }
      }
    }
  #endif
}

#if os(Linux)
  /// Whether process `pid` runs: it exists and is not a zombie waiting to be reaped.
  private func isRunning(_ pid: pid_t) -> Bool {
    guard let stat = fileText(URL(fileURLWithPath: "/proc/\(pid)/stat")) else { return false }
    // NB: The state follows the command name, which is in parentheses and may hold spaces.
    guard let end = stat.lastIndex(of: ")") else { return false }
    return !stat[end...].dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }
#endif
