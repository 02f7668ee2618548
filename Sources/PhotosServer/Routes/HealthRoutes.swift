import Foundation
import Hummingbird
import Photos
import PhotosLocking

/// `GET /healthz`, for a load balancer: 200 `{"status": "ready"}` when the library's database
/// answers, else 503 `{"status": "unavailable", "reason": ...}` with `Retry-After`, within
/// ``timeout`` however the database fails (a stalled network included). No authentication:
/// it says nothing but whether the instance can serve.
struct HealthRoutes {
    let service: LibraryService

    /// How long the check waits for the database.
    static let timeout: Duration = .seconds(2)

    private struct Health: Encodable {
        let status: String
        var reason: String?
    }

    func add(to router: Router<PhotosRequestContext>) {
        router.get("healthz") { _, _ in
            let library = service.library
            // Whichever comes first: the database's answer, or the timeout (a read stalled on
            // the network goes on in the reads pool; the answer doesn't wait for it).
            let answer = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                let once = OneShot(continuation)
                Task {
                    do {
                        _ = try await service.quickly("health") { try library.currentPosition() }
                        once.resume(nil)
                    } catch {
                        once.resume((error as? PHPhotosError)?.message ?? "\(error)")
                    }
                }
                Task {
                    try? await Task.sleep(for: Self.timeout)
                    once.resume("the database did not answer within \(Self.timeout)")
                }
            }
            guard let reason = answer else { return JSONResponse.make(Health(status: "ready")) }
            var response = JSONResponse.make(Health(status: "unavailable", reason: reason), status: .serviceUnavailable)
            response.headers[.retryAfter] = String(APIError.retryAfterSeconds)
            return response
        }
    }
}

/// A continuation resumed by the first of several callers.
private final class OneShot<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: Value) {
        continuation.withLock { held in
            held?.resume(returning: value)
            held = nil
        }
    }
}
