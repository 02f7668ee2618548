import Foundation

/// Whether the app may use the library. Raw values are Apple's.
public enum PHAuthorizationStatus: Int, Sendable, CaseIterable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}

/// The access an app asks for. Raw values are Apple's.
public enum PHAccessLevel: Int, Sendable, CaseIterable {
    case addOnly = 1
    case readWrite = 2
}

extension PHPhotoLibrary {
    /// Linux: always `.authorized`. There is no privacy prompt; access to a library is access
    /// to its folder, governed by file permissions (an unreadable library fails to open).
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        .authorized
    }

    /// Linux: always `.authorized` (see ``authorizationStatus(for:)``).
    @available(*, deprecated, renamed: "authorizationStatus(for:)")
    public class func authorizationStatus() -> PHAuthorizationStatus {
        .authorized
    }

    /// Calls `handler` with `.authorized` on a background queue, as Apple's would after the
    /// user agreed.
    public class func requestAuthorization(
        for accessLevel: PHAccessLevel, handler: @escaping (PHAuthorizationStatus) -> Void
    ) {
        // Apple's handler is not @Sendable; it is called once, on that queue.
        let handler = UncheckedSendable(handler)
        DispatchQueue.global().async { handler.value(.authorized) }
    }

    /// Returns `.authorized`.
    public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus {
        .authorized
    }

    /// Calls `handler` with `.authorized` on a background queue.
    @available(*, deprecated, renamed: "requestAuthorization(for:handler:)")
    public class func requestAuthorization(_ handler: @escaping (PHAuthorizationStatus) -> Void) {
        requestAuthorization(for: .readWrite, handler: handler)
    }
}
