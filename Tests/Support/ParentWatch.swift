import Foundation

/// Makes this helper program exit as soon as the process that started it is gone.
///
/// A test that crashes never stops the programs it started: without this, a helper that
/// loops until told to stop (`file-write-loop`, `defaults-burst`, …) would run, and load the
/// machine, until it is rebooted. Call it first thing in a helper's `main`.
///
/// The parent is the process named by ``ProbeProgram``'s `SHARING_PROBE_PARENT` variable, so
/// that a helper whose parent died before it started exits too; else the one it started with.
public func exitWhenTheParentExits() {
  let parent =
    ProcessInfo.processInfo.environment[ProbeProgram.parentVariable].flatMap { pid_t($0) }
    ?? getppid()
  let watch = Thread {
    while getppid() == parent { usleep(100_000) }
    _exit(EXIT_FAILURE)
  }
  watch.start()
}
