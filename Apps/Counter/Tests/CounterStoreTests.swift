import CounterKit
import Foundation
import Testing

@Suite struct CounterStoreTests {
  @Test func pathEndingInPlistIsUsedAsGiven() {
    #expect(
      CounterStore.file(forPath: "/tmp/state/counter.plist").path == "/tmp/state/counter.plist"
    )
  }

  @Test func plistIsAddedToAnyOtherPath() {
    #expect(CounterStore.file(forPath: "/tmp/mystore.txt").path == "/tmp/mystore.txt.plist")
    #expect(CounterStore.file(forPath: "/tmp/state").path == "/tmp/state.plist")
  }

  @Test func relativePathIsInTheCurrentDirectory() {
    let file = CounterStore.file(forPath: "mystore.txt")
    #expect(file.path == FileManager.default.currentDirectoryPath + "/mystore.txt.plist")
  }
}

/// Where Foundation keeps the default store, which `counter` locks beside.
@Suite struct CounterDefaultFileTests {
  @Test func defaultFileFollowsXDGConfigHomeThenHome() {
    let name = ProcessInfo.processInfo.processName
    #expect(
      CounterStore.defaultFile(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/h"]).path
        == "/x/config/\(name).plist"
    )
    #expect(
      CounterStore.defaultFile(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]).path
        == "/h/.config/\(name).plist"
    )
  }
}
