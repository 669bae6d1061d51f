import Foundation
import XCTest

@testable import SharingDependencies

/// How the calling thread is told apart. XCTest, whose tests run on the main thread.
final class ThreadIDTests: XCTestCase {
  func testTheMainThreadIsToldFromOthersEveryTimeItIsAsked() throws {
    try XCTSkipUnless(Thread.isMainThread, "This test runs on the main thread.")
    XCTAssertEqual([isOnMainThread(), isOnMainThread()], [true, true])
    let elsewhere = Locked<[Bool]>([])
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      elsewhere.withLock { $0 = [isOnMainThread(), isOnMainThread()] }
      done.signal()
    }
    done.wait()
    XCTAssertEqual(elsewhere.withLock { $0 }, [false, false])
  }
}
