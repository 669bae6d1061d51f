import Foundation
import SharingDependencies
import Testing

@testable import SharingPersistence

#if os(Linux) || os(Android)
  /// The watcher's failures to set up inotify, injected: the real limits are the machine's.
  @Suite struct FileWatcherTests {
    @Test func refusedInstanceIsReportedOnceWithTheLimitToRaise() {
      let watcher = FileWatcher(
        inotify: InotifyCalls(initialize: { -EMFILE }, addWatch: { _, _, _ in -EBADF })
      )
      let messages = reportsWhileWatching(
        ["/tmp/settings.json", "/tmp/other.json"],
        with: watcher
      )
      #expect(messages.count == 1)
      #expect(messages.first?.contains("'inotify_init1' failed with EMFILE") == true)
      #expect(messages.first?.contains("sysctl fs.inotify.max_user_instances=") == true)
      #expect(messages.first?.contains("not played back") == true)
    }

    @Test func refusedWatchIsReportedOnceWithTheLimitToRaise() {
      let watcher = FileWatcher(
        inotify: InotifyCalls(
          initialize: InotifyCalls.system.initialize,
          addWatch: { _, _, _ in -ENOSPC }
        )
      )
      let messages = reportsWhileWatching(
        ["/tmp/watched/settings.json", "/tmp/elsewhere/other.json"],
        with: watcher
      )
      #expect(messages.count == 1)
      #expect(messages.first?.contains("Cannot watch /tmp/watched for changes") == true)
      #expect(messages.first?.contains("'inotify_add_watch' failed with ENOSPC") == true)
      #expect(messages.first?.contains("sysctl fs.inotify.max_user_watches=") == true)
    }

    @Test func otherFailuresAreReportedWithoutALimit() {
      let watcher = FileWatcher(
        inotify: InotifyCalls(
          initialize: InotifyCalls.system.initialize,
          addWatch: { _, _, _ in -EACCES }
        )
      )
      withKnownIssue {
        _ = watcher.watch(path: "/tmp/private/settings.json") {}
      } matching: { issue in
        issue.description.contains("'inotify_add_watch' failed with EACCES")
          && !issue.description.contains("sysctl")
      }
    }

    /// Watches every path, stops watching, and returns the issues reported meanwhile.
    private func reportsWhileWatching(_ paths: [String], with watcher: FileWatcher) -> [String] {
      let reports = Locked<[String]>([])
      withKnownIssue {
        let watches = paths.map { watcher.watch(path: $0) {} }
        for watch in watches { watch.stop() }
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      return reports.withLock { $0 }
    }
  }
#endif
