// Minimal UIKit stand-ins for the sample apps: just enough of UIKit's names for code written
// the way PhotoKit sample code is written to compile unchanged on Linux, with the few checks
// UIKit itself makes (a batch update must leave the data source's count consistent, or UIKit
// raises NSInternalInconsistencyException), so the apps' runtime checks can fail.
//
// `UIImage` is PhotoKit for Linux's own stand-in, re-exported from Photos, as `import UIKit`
// brings UIImage on Apple's platforms.
@_exported import class Photos.UIImage
import Foundation

// MARK: - Views

@MainActor
open class UIView: NSObject {
    public var isHidden = false
    public override init() { super.init() }
}

@MainActor
open class UIImageView: UIView {
    public var image: UIImage?
    public init(image: UIImage? = nil) {
        self.image = image
        super.init()
    }
}

@MainActor
open class UILabel: UIView {
    public var text: String?
}

@MainActor
open class UIBarButtonItem: NSObject {
    public var title: String?
    public var isEnabled = true
    public init(title: String?) { self.title = title }
}

@MainActor
public final class UINavigationItem: NSObject {
    public var title: String?
    public var rightBarButtonItem: UIBarButtonItem?
}

// MARK: - View controllers

@MainActor
open class UIViewController: NSObject {
    public var title: String?
    public let navigationItem = UINavigationItem()
    public internal(set) var navigationController: UINavigationController?
    public private(set) var isViewLoaded = false

    public override init() { super.init() }

    /// Called once, by ``loadViewIfNeeded()``.
    open func viewDidLoad() {}

    public func loadViewIfNeeded() {
        guard !isViewLoaded else { return }
        isViewLoaded = true
        viewDidLoad()
    }
}

@MainActor
public final class UINavigationController: UIViewController {
    public private(set) var viewControllers: [UIViewController] = []

    public init(rootViewController: UIViewController) {
        super.init()
        pushViewController(rootViewController, animated: false)
    }

    public var topViewController: UIViewController? { viewControllers.last }

    public func pushViewController(_ viewController: UIViewController, animated: Bool) {
        viewController.navigationController = self
        viewControllers.append(viewController)
        viewController.loadViewIfNeeded()
    }

    @discardableResult
    public func popViewController(animated: Bool) -> UIViewController? {
        guard viewControllers.count > 1 else { return nil }
        let popped = viewControllers.removeLast()
        popped.navigationController = nil
        return popped
    }
}

/// UIKit's inconsistency exception: the process stops with the reason, as an uncaught one does.
@MainActor
func raiseInconsistency(_ reason: String) -> Never {
    fatalError("NSInternalInconsistencyException: \(reason)")
}
