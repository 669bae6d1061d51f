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
      let reports = Locked<[String]>([])
      withKnownIssue {
        let first = watcher.watch(path: "/tmp/settings.json") {}
        let second = watcher.watch(path: "/tmp/other.json") {}
        first()
        second()
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      let messages = reports.withLock { $0 }
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
      let reports = Locked<[String]>([])
      withKnownIssue {
        let first = watcher.watch(path: "/tmp/watched/settings.json") {}
        let second = watcher.watch(path: "/tmp/elsewhere/other.json") {}
        first()
        second()
      } matching: { issue in
        reports.withLock { $0.append(issue.description) }
        return true
      }
      let messages = reports.withLock { $0 }
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
  }
#endif
