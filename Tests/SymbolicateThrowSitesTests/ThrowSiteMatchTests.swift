import Testing

@testable import SymbolicateThrowSites

/// One row per catalogue entry: the raising frames and the reason a report of that rule shows.
/// Frames and reasons are copied from the public reports the entry cites (`origin`), cut to the
/// lines needed; the rows marked `made here` have no public text with that frame and reason
/// together and were written from the entry's own symbol and reason.
struct ThrowRow: Sendable, CustomTestStringConvertible {
    let id: String
    let name: String?
    let frames: [String]
    let reason: String?
    let origin: String

    var testDescription: String { id }

    var evidence: ThrowEvidence {
        ThrowEvidence(exceptionName: name, raisingFrames: frames, reason: reason, texts: reason.map { [$0] } ?? [])
    }
}

let throwRows: [ThrowRow] = [
    ThrowRow(
        id: "uikit.tableview.invalid-row-count", name: "NSInternalInconsistencyException",
        frames: [
            "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]",
            "-[UITableView _endCellAnimationsWithContext:]",
        ],
        reason:
            "Invalid update: invalid number of rows in section 1.  The number of rows contained in an existing section after the update (0) must be equal to the number of rows contained in that section before the update (297), plus or minus the number of rows inserted or deleted from that section (0 inserted, 295 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).",
        origin: "https://github.com/rondinellimorais/ExpandableTableView/issues/4"),
    ThrowRow(
        id: "uikit.tableview.invalid-section-count", name: "NSInternalInconsistencyException",
        frames: ["-[UITableView _endCellAnimationsWithContext:]", "-[UITableView _updateRowsAtIndexPaths:updateAction:withRowAnimation:]"],
        reason:
            "Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (1) must be equal to the number of sections contained in the table view before the update (0), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted).",
        origin: "https://github.com/forkingdog/UITableView-FDTemplateLayoutCell/issues/40"),
    ThrowRow(
        id: "uikit.tableview.scroll-row-out-of-range", name: "NSRangeException",
        frames: ["-[UITableView _contentOffsetForScrollingToRowAtIndexPath:atScrollPosition:usingPresentationValues:]"],
        reason:
            "-[UITableView _contentOffsetForScrollingToRowAtIndexPath:atScrollPosition:usingPresentationValues:]: row (82) beyond bounds (82) for section (0).",
        origin: "https://github.com/CodeWicky/DWLogger/issues/1"),
    ThrowRow(
        id: "uikit.tableview.dequeue-unregistered", name: "NSInternalInconsistencyException",
        frames: ["-[UITableView dequeueReusableCellWithIdentifier:forIndexPath:]"],
        reason:
            "unable to dequeue a cell with identifier Cell - must register a nib or a class for the identifier or connect a prototype cell in a storyboard",
        origin: "made here (the pull request cites the rule, not the text)"),
    ThrowRow(
        id: "uikit.collectionview.dequeue-unregistered-cell", name: "NSInternalInconsistencyException",
        frames: ["-[UICollectionView _dequeueReusableViewOfKind:withIdentifier:forIndexPath:viewCategory:]"],
        reason:
            "could not dequeue a view of kind: UICollectionElementKindCell with identifier EHHorizontalLineViewCell - must register a nib or a class for the identifier or connect a prototype cell in a storyboard",
        origin: "https://github.com/josshad/EHHorizontalSelectionView/issues/3"),
    ThrowRow(
        id: "uikit.collectionview.dequeue-unregistered-supplementary", name: "NSInternalInconsistencyException",
        frames: ["-[UICollectionView _dequeueReusableViewOfKind:withIdentifier:forIndexPath:viewCategory:]"],
        reason: "could not dequeue a view of kind: MagazineLayoutSupplementaryViewKindSectionBackground with identifier UserProfileView",
        origin: "https://github.com/airbnb/MagazineLayout/issues/73"),
    ThrowRow(
        id: "uikit.collectionview.invalid-item-count", name: "NSInternalInconsistencyException",
        frames: ["-[UICollectionView _endItemAnimationsWithInvalidationContext:tentativelyForReordering:animator:collectionViewAnimator:]"],
        reason:
            "Invalid update: invalid number of items in section 0.  The number of items contained in an existing section after the update (3) must be equal to the number of items contained in that section before the update (2), plus or minus the number of items inserted or deleted from that section (0 inserted, 0 deleted)",
        origin: "made here"),
    ThrowRow(
        id: "appkit.collectionview.dequeue-unregistered", name: "NSInternalInconsistencyException",
        frames: [
            "-[NSCalendarDate initWithCoder:]",
            "-[_NSCollectionViewCore _dequeueReusableViewOfKind:withIdentifier:forIndexPath:viewCategory:]",
        ],
        reason:
            "could not dequeue an item of kind: NSCollectionElementKindItem with identifier Cell - must register a nib or a class for the identifier, or name a nib or class to match the identifier",
        origin: "https://github.com/feedback-assistant/reports/issues/705"),
    ThrowRow(
        id: "foundation.kvo.remove-unregistered-observer", name: "NSRangeException",
        frames: [
            "-[NSObject(NSKeyValueObserverRegistration) _removeObserver:forProperty:]",
            "-[NSObject(NSKeyValueObserverRegistration) removeObserver:forKeyPath:]",
        ],
        reason:
            "Cannot remove an observer <JSQMessagesInputToolbar 0x94637d0> for the key path \"leftBarButtonItem\" from <JSQMessagesToolbarContentView 0x94667e0> because it is not registered as an observer.",
        origin: "https://github.com/jessesquires/JSQMessagesViewController/issues/379"),
    ThrowRow(
        id: "foundation.notificationcenter.kvo-remove", name: "NSRangeException",
        frames: [
            "-[NSObject(NSKeyValueObserverRegistration) _removeObserver:forProperty:]",
            "-[NSObject(NSKeyValueObserverRegistration) removeObserver:forKeyPath:]",
        ],
        reason:
            "Cannot remove an observer <RMSaveButton 0x15f2a760> for the key path \"UIApplicationDidEnterBackgroundNotification\" from <NSNotificationCenter 0x15f6d920> because it is not registered as an observer.",
        origin: "https://github.com/mcduffeyrt/RMSaveButton/issues/2 (the reason; the frames as in the KVO row)"),
    ThrowRow(
        id: "uikit.storyboard.unknown-custom-class", name: "NSUnknownKeyException",
        frames: [
            "-[NSObject(NSKeyValueCoding) setValue:forKey:]", "-[UIViewController setValue:forKey:]",
            "-[UIRuntimeOutletConnection connect]",
        ],
        reason:
            "[<UIViewController 0x7fbba8d1ed70> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key notifyLabel.",
        origin: "https://github.com/netguru/BlueSwift/issues/16"),
    ThrowRow(
        id: "uikit.nib.stale-outlet", name: "NSUnknownKeyException",
        frames: ["-[NSObject(NSKeyValueCoding) setValue:forKey:]", "-[UIRuntimeOutletConnection connect]"],
        reason:
            "[<UIStoryboardSegueTemplate 0x7fa2b346ebd0> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key containerView.",
        origin: "https://github.com/hartlco/MHCustomTabBarController/issues/15"),
    ThrowRow(
        id: "foundation.kvc.undefined-key", name: "NSUnknownKeyException",
        frames: ["-[NSObject(NSKeyValueCoding) setValue:forUndefinedKey:]", "-[NSObject(NSKeyValueCoding) setValue:forKey:]"],
        reason: "[<UIView 0x7fc42d60d0d0> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key dataSource.",
        origin: "https://github.com/ladmini/LZViewPager/issues/29"),
    ThrowRow(
        id: "foundation.dictionary.literal-nil", name: "NSInvalidArgumentException",
        frames: ["-[__NSPlaceholderDictionary initWithObjects:forKeys:count:]", "+[NSDictionary dictionaryWithObjects:forKeys:count:]"],
        reason: "*** -[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object from objects[2]",
        origin: "https://github.com/mybigday/react-native-s3/pull/2"),
    ThrowRow(
        id: "foundation.dictionary.set-nil", name: "NSInvalidArgumentException",
        frames: ["-[__NSDictionaryM setObject:forKey:]"],
        reason: "*** -[__NSDictionaryM setObject:forKey:]: object cannot be nil (key: name)",
        origin: "made here (the pull request quotes the rule)"),
    ThrowRow(
        id: "foundation.array.literal-nil", name: "NSInvalidArgumentException",
        frames: ["-[__NSPlaceholderArray initWithObjects:count:]", "+[NSArray arrayWithObjects:count:]"],
        reason: "*** -[__NSPlaceholderArray initWithObjects:count:]: attempt to insert nil object from objects[0]",
        origin: "https://github.com/romaonthego/REFrostedViewController/issues/6"),
    ThrowRow(
        id: "foundation.array.insert-nil", name: "NSInvalidArgumentException",
        frames: ["-[__NSArrayM insertObject:atIndex:]"],
        reason: "*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil",
        origin: "made here"),
    ThrowRow(
        id: "foundation.array.index-beyond-bounds", name: "NSRangeException",
        frames: ["-[__NSArrayI objectAtIndex:]"],
        reason: "*** -[__NSArrayI objectAtIndex:]: index 1 beyond bounds [0 .. 0]",
        origin: "https://github.com/KrassOrg/bsTestRepo/issues/1057"),
    ThrowRow(
        id: "foundation.collection.mutated-while-enumerated", name: "NSGenericException",
        frames: ["__NSFastEnumerationMutationHandler", "-[NSConcreteMapTable countByEnumeratingWithState:objects:count:]"],
        reason: "*** Collection <NSConcreteMapTable: 0x157e0fa50> was mutated while being enumerated.",
        origin: "https://github.com/Livefyre/StreamHub-iOS-SDK/issues/74"),
    ThrowRow(
        id: "foundation.json.invalid-type", name: "NSInvalidArgumentException",
        frames: ["_writeJSONValue", "+[NSJSONSerialization dataWithJSONObject:options:error:]"],
        reason: "Invalid type in JSON write (__NSDate)",
        origin: "made here"),
    ThrowRow(
        id: "foundation.json.nil-data", name: "NSInvalidArgumentException",
        frames: ["+[NSJSONSerialization JSONObjectWithData:options:error:]"],
        reason: "data parameter is nil",
        origin: "made here"),
    ThrowRow(
        id: "foundation.keyedunarchiver.class-not-found", name: "NSInvalidUnarchiveOperationException",
        frames: [
            "-[NSCoder(Exceptions) __failWithExceptionName:errorCode:format:]", "_decodeObjectBinary",
            "-[NSKeyedUnarchiver _decodeArrayOfObjectsForKey:]",
        ],
        reason:
            "*** -[NSKeyedUnarchiver decodeObjectForKey:]: cannot decode object of class (OSIndirectInfluence) for key (NS.objects); the class may be defined in source code or a library that is not linked",
        origin: "https://github.com/OneSignal/OneSignal-iOS-SDK/issues/696"),
    ThrowRow(
        id: "foundation.keyedunarchiver.invalid-archive", name: "NSInvalidArgumentException",
        frames: ["-[NSKeyedUnarchiver initForReadingWithData:]", "+[NSKeyedUnarchiver unarchiveObjectWithData:]"],
        reason:
            "*** -[NSKeyedUnarchiver initForReadingWithData:]: incomprehensible archive (0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30)",
        origin: "made here (the issue names the exception, not its text)"),
    ThrowRow(
        id: "objc.unrecognized-selector", name: "NSInvalidArgumentException",
        frames: ["-[NSObject(NSObject) doesNotRecognizeSelector:]", "___forwarding___", "_CF_forwarding_prep_0"],
        reason: "-[__NSArrayI objectForKey:]: unrecognized selector sent to instance 0x1e59bc50",
        origin: "/work/shared/corpus/reports/kscrash__nsexception_kscrash-generated_iphone3-1_ios4-3.crash"),
    ThrowRow(
        id: "uikit.layout.no-common-ancestor", name: "NSGenericException",
        frames: [
            "-[NSLayoutConstraint _addToEngine:roundingAdjustment:mutuallyExclusiveConstraints:]", "-[NSLayoutConstraint setActive:]",
        ],
        reason:
            "Unable to activate constraint with anchors <NSLayoutYAxisAnchor:0x600001f5c0c0 \"UIView:0x7f9.top\"> and <NSLayoutYAxisAnchor:0x600001f5c100 \"UIView:0x7fa.top\"> because they have no common ancestor.  Does the constraint or its anchors reference items in different view hierarchies?  That's illegal.",
        origin: "https://github.com/Isuru-Nanayakkara/IJProgressView/issues/9"),
    ThrowRow(
        id: "stripe.payment-sheet-already-presented", name: "NSInvalidArgumentException",
        frames: ["-[UIViewController _presentViewController:withAnimationController:completion:]"],
        reason:
            "Application tried to present modally a view controller <Stripe.BottomSheetViewController: 0x15df81de0> that is already being presented by <_TtGC7SwiftUI19UIHostingControllerGVS_15ModifiedContentVS_7AnyViewVS_12RootModifier__: 0x15ec0bac0>.",
        origin: "https://github.com/stripe-archive/firebase-mobile-payments/issues/7"),
    ThrowRow(
        id: "uikit.viewcontroller.present-already-presented", name: "NSInvalidArgumentException",
        frames: [
            "-[UIViewController _presentViewController:withAnimationController:completion:]",
            "__63-[UIViewController _presentViewController:animated:completion:]_block_invoke_2",
        ],
        reason:
            "Application tried to present modally a view controller <UIViewController: 0x7f87b7d7bd10> that is already being presented by <UIViewController: 0x7f87b7c0cba0>.",
        origin: "https://github.com/Expensify/react-native-share-menu/issues/101"),
    ThrowRow(
        id: "uikit.viewcontroller.present-nil", name: "NSInvalidArgumentException",
        frames: ["-[UIViewController _presentViewController:withAnimationController:completion:]"],
        reason: "Application tried to present a nil modal view controller on target <MyApp.RootViewController: 0x7fb1>.",
        origin: "made here"),
    ThrowRow(
        id: "uikit.navigation.push-same-instance", name: "NSInvalidArgumentException",
        frames: ["-[UINavigationController pushViewController:transition:forceImmediate:]"],
        reason: "Pushing the same view controller instance more than once is not supported (<MyApp.WebViewController: 0x7fd2>)",
        origin: "https://github.com/mikefrederick/MFSideMenu/issues/213"),
    ThrowRow(
        id: "uikit.popover.missing-source", name: "NSGenericException",
        frames: ["-[UIPopoverPresentationController presentationTransitionWillBegin]"],
        reason:
            "UIPopoverPresentationController (<_UIAlertControllerActionSheetRegularPresentationController: 0x79970f20>) should have a non-nil sourceView or barButtonItem set before the presentation occurs.",
        origin: "https://github.com/viezel/TiSocial.Framework/issues/153"),
    ThrowRow(
        id: "uikit.storyboard.missing-identifier", name: "NSInvalidArgumentException",
        frames: ["-[UIStoryboard instantiateViewControllerWithIdentifier:]"],
        reason: "Storyboard (<UIStoryboard: 0x1456f8e0>) doesn't contain a view controller with identifier 'QBAlbumsNavigationController'",
        origin: "https://github.com/nek023/QBImagePicker/issues/95"),
    ThrowRow(
        id: "uikit.storyboard.no-initial-view-controller", name: "NSInternalInconsistencyException",
        frames: [
            "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]",
            "-[UIStoryboard instantiateInitialViewController]",
        ],
        reason: "Invalid parameter not satisfying: nibNameMap != nil",
        origin: "https://github.com/lionheart/openradar-mirror/issues/474"),
    ThrowRow(
        id: "uikit.segue.missing-identifier", name: "NSInvalidArgumentException",
        frames: ["-[UIViewController performSegueWithIdentifier:sender:]"],
        reason: "Receiver (<MainVC: 0x7fd181ca9110>) has no segue with identifier 'rightMenu'",
        origin: "https://github.com/matghazaryan/AMSlideMenu2/issues/162"),
    ThrowRow(
        id: "uikit.segue.custom-without-perform", name: "NSInternalInconsistencyException",
        frames: ["-[UIStoryboardSegue perform]"],
        reason: "Could not perform segue with identifier 'test'. A segue must either have a performHandler or it must override -perform.",
        origin: "https://github.com/ivanvorobei/SPStorkController/issues/82"),
    ThrowRow(
        id: "coredata.relationship-across-contexts", name: "NSInvalidArgumentException",
        frames: ["_PFManagedObject_coerceValueForKeyWithDescription", "_sharedIMPL_setvfk_core"],
        reason:
            "Illegal attempt to establish a relationship 'query' between objects in different contexts (source = <SCArticleQueryResultModel: 0x1d0489510>, destination = <SCArticleQueryModel: 0x1d0486130>)",
        origin: "https://github.com/forcedotcom/ServiceSDK-iOS/issues/30"),
    ThrowRow(
        id: "coredata.fault-unfulfilled", name: "NSObjectInaccessibleException",
        frames: ["_PFFaultHandlerLookupRow", "_PF_ManagedObject_WillChangeValueForKeyIndex"],
        reason:
            "CoreData could not fulfill a fault for '0x7fe4da69e120 <x-coredata://10BD1DD0-BE63-40CB-A8FE-D3F4A54BF9D4/LocalizedText/p8>'",
        origin: "https://github.com/colemancda/Pedido/issues/2"),
    ThrowRow(
        id: "coredata.context-off-queue", name: nil,
        frames: [
            "+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]",
            "-[NSManagedObjectContext executeFetchRequest:error:]",
        ],
        reason: nil, origin: "made here"),
    ThrowRow(
        id: "dispatch.group-leave-unbalanced", name: nil,
        frames: ["dispatch_group_leave.cold.1", "dispatch_group_leave"],
        reason: "BUG IN CLIENT OF LIBDISPATCH: Unbalanced call to dispatch_group_leave()",
        origin: "https://github.com/Ranchero-Software/NetNewsWire/issues/2518"),
    ThrowRow(
        id: "avfaudio.tap-invalid-format", name: "com.apple.coreaudio.avfaudio",
        frames: [
            "-[NSException initWithCoder:]",
            "AUGraphNodeBaseV3::CreateRecordingTap(unsigned long, unsigned int, AVAudioFormat*, void (AVAudioPCMBuffer*, AVAudioTime*) block_pointer)",
        ],
        reason: "Required condition is false: IsFormatSampleRateAndChannelCountValid(format)",
        origin: "https://github.com/argmaxinc/argmax-oss-swift/issues/261"),
    ThrowRow(
        id: "avfaudio.tap-sample-rate-mismatch", name: "com.apple.coreaudio.avfaudio",
        frames: ["AVAudioEngineGraph::InstallTapOnNode"],
        reason: "required condition is false: format.sampleRate == inputHWFormat.sampleRate",
        origin: "https://github.com/AudioKit/AudioKit/issues/1869"),
    ThrowRow(
        id: "tcc.camera-usage-description", name: nil,
        frames: ["__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"],
        reason:
            "This app has crashed because it attempted to access privacy-sensitive data without a usage description.  The app's Info.plist must contain an NSCameraUsageDescription key with a string value explaining to the user how the app uses this data.",
        origin: "https://github.com/dokun1/Lumina/issues/45"),
    ThrowRow(
        id: "tcc.photo-library-usage-description", name: nil,
        frames: ["__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"],
        reason:
            "This app has crashed because it attempted to access privacy-sensitive data without a usage description.  The app's Info.plist must contain an NSPhotoLibraryUsageDescription key with a string value explaining to the user how the app uses this data.",
        origin: "https://github.com/nek023/QBImagePicker/issues/182"),
    ThrowRow(
        id: "tcc.usage-description-missing", name: nil,
        frames: ["__TCC_CRASHING_DUE_TO_PRIVACY_VIOLATION__"],
        reason:
            "The app's Info.plist must contain an NSContactsUsageDescription key with a string value explaining to the user how the app uses this data.",
        origin: "https://github.com/BelledonneCommunications/linphone-iphone/issues/362"),
    ThrowRow(
        id: "corelocation.background-updates-without-mode", name: "NSInternalInconsistencyException",
        frames: [
            "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]",
            "-[CLLocationManager setAllowsBackgroundLocationUpdates:]",
        ],
        reason: "Invalid parameter not satisfying: !stayUp || CLClientIsBackgroundable(internal->fClient)",
        origin: "https://github.com/mauron85/react-native-background-geolocation/issues/60"),
    ThrowRow(
        id: "quartzcore.layer-nan-geometry", name: "CALayerInvalidGeometry",
        frames: ["CA::Layer::set_position(CA::Vec2<double> const&, bool)", "-[CALayer setPosition:]", "-[CALayer setFrame:]"],
        reason: "CALayer position contains NaN: [32.5 nan]",
        origin: "https://github.com/calimarkus/JDFlipNumberView/issues/44"),
    ThrowRow(
        id: "swiftui.environment-object-missing", name: nil,
        frames: ["EnvironmentObject.error()"],
        reason:
            "Fatal error: No ObservableObject of type APIRepresentative found. A View.environmentObject(_:) for APIRepresentative may be missing as an ancestor of this view.: file SwiftUI, line 0",
        origin: "https://github.com/TelemetryDeck/TelemetryViewer/issues/11"),
    ThrowRow(
        id: "firebase.app-not-configured", name: "com.firebase.installations",
        frames: ["+[FIRInstallations installations]"],
        reason:
            "The default FirebaseApp instance must be configured before the defaultFirebaseApp instance can be initialized. One way to ensure that is to call `[FIRApp configure];` (`FirebaseApp.configure()` in Swift) in the App Delegate's `application:didFinishLaunchingWithOptions:` (`application(_:didFinishLaunchingWithOptions:)` in Swift).",
        origin: "https://github.com/firebase/firebase-ios-sdk/issues/6925"),
    ThrowRow(
        id: "firebase.database-before-configure", name: nil,
        frames: ["+[FIRDatabase database]"],
        reason: "Failed to get default FIRDatabase instance. Must call FIRApp.configure() before using FIRDatabase.",
        origin: "https://github.com/fullstackreact/FirestackApp/issues/14"),
    ThrowRow(
        id: "firebase.configure-without-plist", name: "com.firebase.core",
        frames: ["+[NSException raise:format:]", "+[FIRApp configureDefaultAppWithOptions:sendingNotifications:]", "+[FIRApp configure]"],
        reason: nil, origin: "https://github.com/firebase/flutterfire/issues/709"),
    ThrowRow(
        id: "admob.application-id-missing", name: "GADInvalidInitializationException",
        frames: [],
        reason:
            "The Google Mobile Ads SDK was initialized without an application ID. Google AdMob publishers, follow instructions at https://googlemobileadssdk.page.link/admob-ios-update-plist to set a valid application ID.",
        origin: "https://github.com/googleads/googleads-mobile-unity/issues/2045"),
    ThrowRow(
        id: "admob.initialized-incorrectly", name: "GADInvalidInitializationException",
        frames: [],
        reason:
            "The Google Mobile Ads SDK was initialized incorrectly. Google AdMob publishers should follow instructions here: https://googlemobileadssdk.page.link/admob-ios-update-plist to include the AppMeasurement framework, set the -ObjC linker flag, and set GADApplicationIdentifier with a valid App ID.",
        origin: "https://github.com/expo/expo/pull/4654"),
    ThrowRow(
        id: "google-signin.url-scheme-missing", name: "NSInvalidArgumentException",
        frames: ["-[GIDSignIn signInWithOptions:]", "-[GIDSignInButton pressed]"],
        reason:
            "Your app is missing support for the following URL schemes: com.googleusercontent.apps.514797035410-uksdcup8ju2g0frgqq3f88ieqnvmr2t9",
        origin: "https://github.com/googlesamples/google-services/issues/81"),
    ThrowRow(
        id: "google-signin.client-id-missing", name: "NSInvalidArgumentException",
        frames: ["-[GIDSignIn signInWithOptions:]"],
        reason: "You must specify |clientID| for |GIDSignIn|",
        origin: "https://github.com/flutter/flutter/issues/85738"),
    ThrowRow(
        id: "google-signin.presenting-controller", name: "NSInternalInconsistencyException",
        frames: ["-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]", "-[GIDSignIn presentViewController:]"],
        reason: nil, origin: "https://github.com/googlesamples/google-services/issues/275"),
    ThrowRow(
        id: "facebook.app-id-missing", name: "InvalidOperationException",
        frames: [],
        reason:
            "App ID not found. Add a string value with your app ID for the key FacebookAppID to the Info.plist or call [FBSDKSettings setAppID:].",
        origin: "https://github.com/bhagyashreekhatri/flutter_social_content_share/issues/9"),
    ThrowRow(
        id: "google-maps.api-key-missing", name: "GMSServicesException",
        frames: ["+[NSException raise:format:]", "+[GMSServices checkServicePreconditions]", "+[GMSServices sharedServicesSync]"],
        reason: "Google Maps SDK for iOS must be initialized via [GMSServices provideAPIKey:...] prior to use",
        origin: "https://github.com/flutter/flutter/issues/17894"),
    ThrowRow(
        id: "realm.incorrect-thread", name: "realm::IncorrectThreadException",
        frames: [],
        reason: "Realm accessed from incorrect thread.",
        origin: "https://github.com/realm/realm-swift/issues/4328"),
    ThrowRow(
        id: "realm.migration-required", name: "RLMException",
        frames: [],
        reason:
            "Migration is required due to the following errors: \n- Can't index property TestObject.data: indexing a property of type 'data' is currently not supported",
        origin: "https://github.com/realm/realm-swift/pull/3221"),
    ThrowRow(
        id: "realm.write-outside-transaction", name: "RLMException",
        frames: [],
        reason: "Attempting to modify object outside of a write transaction - call beginWriteTransaction on an RLMRealm instance first.",
        origin: "https://github.com/realm/realm-swift/issues/4215"),
    ThrowRow(
        id: "react-native.unhandled-js-exception",
        name: "RCTFatalException: Unhandled JS Exception: undefined is not an object (evaluating 'i.image')",
        frames: ["RCTFatal", "-[RCTExceptionsManager reportFatalException:stack:exceptionId:]"],
        reason: "Unhandled JS Exception: undefined is not an object (evaluating 'i.image'), stack:\ne@695:2469",
        origin: "https://github.com/artsy/eigen/issues/2211 (the exception's name carries the message: the name check lets it through)"),
    ThrowRow(
        id: "react-native.native-module-exception", name: "RCTFatalException",
        frames: ["RCTFormatError", "-[RCTCxxBridge handleError:]", "__34-[RCTCxxBridge _initializeBridge:]_block_invoke"],
        reason: "non-std C++ exception",
        origin: "https://github.com/react/react-native/issues/47089"),
    ThrowRow(
        id: "uikit.autolayout.background-thread", name: "NSInternalInconsistencyException",
        frames: ["_AssertAutolayoutOnAllowedThreadsOnly", "-[NSISEngine withBehaviors:performModifications:]"],
        reason:
            "Modifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread.",
        origin: "https://github.com/NativeScript/ios-jsc/issues/1138"),
    ThrowRow(
        id: "uikit.nib.could-not-load", name: "NSInternalInconsistencyException",
        frames: [
            "-[NSException initWithCoder:]", "-[UINib instantiateWithOwner:options:]",
            "-[NSBundle(UINSBundleAdditions) loadNibNamed:owner:options:]",
        ],
        reason:
            "Could not load NIB in bundle: 'NSBundle </var/containers/Bundle/Application/60B73C4D/OpenStackSummit.app> (loaded)' with name 'TableViewHeaderView'",
        origin:
            "https://github.com/Appboy/appboy-ios-sdk/issues/66 (frames), https://github.com/OpenStack-mobile/summit-app-ios/issues/90 (reason)"
    ),
    ThrowRow(
        id: "foundation.string.range-out-of-bounds", name: "NSRangeException",
        frames: ["-[NSException initWithCoder:]", "-[__NSCFString substringWithRange:]"],
        reason: "-[__NSCFString substringWithRange:]: Range {2147483647, 0} out of bounds; string length 72",
        origin: "https://github.com/wordpress-mobile/WordPress-iOS/issues/963"),
    ThrowRow(
        id: "foundation.attributedstring.attribute-out-of-bounds", name: "NSRangeException",
        frames: ["-[NSRLEArray objectAtIndex:effectiveRange:]", "-[NSConcreteMutableAttributedString addAttribute:value:range:]"],
        reason: "NSMutableRLEArray objectAtIndex:effectiveRange:: Out of bounds",
        origin: "https://github.com/subconsciousnetwork/subconscious/issues/19"),
    ThrowRow(
        id: "coredata.fetched-results-controller-without-sort", name: "NSInvalidArgumentException",
        frames: ["-[NSFetchedResultsController initWithFetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:]"],
        reason: "An instance of NSFetchedResultsController requires a fetch request with sort descriptors",
        origin: "https://github.com/magicalpanda/MagicalRecord/issues/348"),
    ThrowRow(
        id: "coredata.keypath-not-in-entity", name: "NSInvalidArgumentException",
        frames: ["-[NSSQLGenerator newSQLStatementForRequest:ignoreInheritance:countOnly:nestingLevel:]"],
        reason: "keypath market.remoteID not found in entity <NSSQLEntity Item id=1>",
        origin: "https://github.com/3lvis/SwiftSync/issues/73"),
    ThrowRow(
        id: "foundation.predicate.format-unparsable", name: "NSInvalidArgumentException",
        frames: ["_qfqp2_performParsing", "+[NSPredicate predicateWithFormat:arguments:]"],
        reason: "Unable to parse the format string \"topicId=11342338 OR sharedEntities CONTAIN '11342338'\"",
        origin: "https://github.com/realm/realm-swift/issues/2763"),
    ThrowRow(
        id: "cxx.mutex-lock-after-destruction", name: "std::__1::system_error",
        frames: ["std::__1::__throw_system_error(int, char const*)", "std::__1::mutex::lock()"],
        reason: "mutex lock failed: Invalid argument",
        origin: "https://github.com/pykeio/ort/issues/409"),
    ThrowRow(
        id: "metal.api-validation", name: nil,
        frames: ["MTLReportFailure", "-[MTLDebugDevice validateNewBufferArgs:options:]"],
        reason:
            "-[MTLDebugDevice validateNewBufferArgs:options:]:366: failed assertion `newBufferWith*:length 0x20000000 must not exceed 256 MB.'",
        origin: "https://github.com/djphoenix/MoneroKit/issues/10"),
    ThrowRow(
        id: "libplatform.unfair-lock-corrupt", name: nil,
        frames: ["_os_unfair_lock_corruption_abort", "_os_unfair_lock_lock_slow", "_logToStderr", "__CFLogCString"],
        reason: nil, origin: "https://github.com/getsentry/sentry-cocoa/issues/3336"),
    ThrowRow(
        id: "libplatform.unfair-lock-recursive", name: nil,
        frames: ["_os_unfair_lock_recursive_abort", "_os_unfair_lock_lock_slow"],
        reason: "BUG IN CLIENT OF LIBPLATFORM: Trying to recursively lock an os_unfair_lock", origin: "made here"),
    ThrowRow(
        id: "libplatform.unfair-lock-unowned", name: nil,
        frames: ["_os_unfair_lock_unowned_abort", "_os_unfair_lock_unlock_slow"],
        reason: "BUG IN CLIENT OF LIBPLATFORM: Unlock of an os_unfair_lock not owned by current thread", origin: "made here"),
    ThrowRow(
        id: "dispatch.semaphore-released-in-use", name: nil,
        frames: ["_dispatch_semaphore_dispose.cold.1", "_dispatch_semaphore_dispose", "_dispatch_dispose"],
        reason: "BUG IN CLIENT OF LIBDISPATCH: Semaphore object deallocated while in use", origin: "made here"),
    ThrowRow(
        id: "dispatch.over-resume", name: nil,
        frames: ["_dispatch_lane_resume", "-[DispatchTimer resume]"],
        reason: "BUG IN CLIENT OF LIBDISPATCH: Over-resume of an object", origin: "made here"),
    ThrowRow(
        id: "dispatch.release-suspended", name: nil,
        frames: ["_dispatch_queue_xref_dispose.cold.2", "_dispatch_queue_xref_dispose", "_dispatch_dispose"],
        reason: "BUG IN CLIENT OF LIBDISPATCH: Release of a suspended object", origin: "made here"),
    ThrowRow(
        id: "swift.checked-continuation-resumed-twice", name: nil,
        frames: ["CheckedContinuation.resume(throwing:)", "partial apply for closure #1 in closure #1 in Dispatcher.protectedSend(_:)"],
        reason: nil, origin: "https://github.com/WalletConnect/WalletConnectSwiftV2/issues/1046"),
    ThrowRow(
        id: "uikit.tableview.nil-cell", name: "NSInternalInconsistencyException",
        frames: ["-[UITableView _configureCellForDisplay:forIndexPath:]"],
        reason:
            "UITableView (<HVTableView: 0x106088e00; baseClass = UITableView>) failed to obtain a cell from its dataSource (<HVTableView: 0x106088e00>)",
        origin: "https://github.com/innovian/HVTableView/issues/27"),
    ThrowRow(
        id: "kotlin-native.unhandled-exception", name: nil,
        frames: ["konan::abort()", "(anonymous namespace)::terminateWithUnhandledException(ObjHeader*)::$_1::operator()() const"],
        reason: nil, origin: "https://github.com/Kotlin/kotlinx.coroutines/issues/3530"),
    ThrowRow(
        id: "mono.unhandled-managed-exception", name: nil,
        frames: ["xamarin_find_protocol_wrapper_type", "mono_invoke_unhandled_exception_hook"],
        reason: nil, origin: "https://github.com/dotnet/maui/issues/18426"),
    ThrowRow(
        id: "swift.exclusivity-violation", name: nil,
        frames: ["swift::runtime::AccessSet::insert"],
        reason: nil, origin: "https://github.com/microsoft/clarity-apps/issues/213"),
    ThrowRow(
        id: "libc.stack-protector", name: nil,
        frames: ["__stack_chk_fail", "parse_header"],
        reason: nil, origin: "made here"),
    ThrowRow(
        id: "opengles.background-gpu", name: nil,
        frames: ["gpus_ReturnNotPermittedKillClient", "gpusSubmitDataBuffers", "glrSGXRenderVertexArray"],
        reason: nil, origin: "https://github.com/mapbox/mapbox-gl-native/issues/1460"),
    ThrowRow(
        id: "libc.fortify-overflow", name: nil,
        frames: ["__chk_fail_overflow", "__strcpy_chk", "copy_name"],
        reason: "detected buffer overflow", origin: "made here"),
    ThrowRow(
        id: "backgroundtasks.register-launch-handler", name: "NSInternalInconsistencyException",
        frames: [
            "-[BGTaskScheduler _unsafe_registerForTaskWithIdentifier:usingQueue:launchHandler:]",
            "-[BGTaskScheduler registerForTaskWithIdentifier:usingQueue:launchHandler:]",
            "-[TSBackgroundFetch registerAppRefreshTask]",
        ],
        reason: nil, origin: "https://github.com/transistorsoft/flutter_background_fetch/issues/414"),
    ThrowRow(
        id: "foundation.kvo.change-not-handled", name: "NSInternalInconsistencyException",
        frames: [
            "-[NSObject(NSKeyValueObserving) observeValueForKeyPath:ofObject:change:context:]", "NSKeyValueNotifyObserver",
            "NSKeyValueDidChange",
        ],
        reason:
            "<SPBundleCommandTextView: 0x60000016e4c0>: An -observeValueForKeyPath:ofObject:change:context: message was received but not handled.",
        origin: "https://github.com/sequelpro/sequelpro/issues/2246"),
    ThrowRow(
        id: "watchkit.background-task.released-uncompleted", name: nil,
        frames: [
            "-[WKRefreshBackgroundTask dealloc]", "BackgroundSyncManager.processBackgroundTaskCallback(task:identifier:)",
            "specialized ExtensionDelegate.handle(_:)",
        ],
        reason: nil, origin: "https://github.com/Automattic/pocket-casts-ios/issues/1340"),
    ThrowRow(
        id: "avfoundation.assetwriter.append-rejected", name: "NSInternalInconsistencyException",
        frames: ["-[AVAssetWriterInput appendSampleBuffer:]", "-[NextLevelSessionExporter encodeReadySamplesFromOutput:toInput:]"],
        reason:
            "*** -[AVAssetWriterInput appendSampleBuffer:] Cannot append sample buffer: Must start a session (using -[AVAssetWriter startSessionAtSourceTime:) first",
        origin: "https://github.com/NextLevel/NextLevelSessionExporter/issues/13"),
    ThrowRow(
        id: "foundation.task.launch-path-not-accessible", name: "NSInvalidArgumentException",
        frames: ["-[NSConcreteTask launchWithDictionary:]"], reason: "launch path not accessible",
        origin: "https://github.com/c9s/GoTray/issues/1"),
]

@Suite struct ThrowSiteMatchTests {
    @Test func everyEntryHasARow() {
        let covered = Set(throwRows.map(\.id))
        for entry in ThrowSiteCatalog.entries {
            #expect(covered.contains(entry.id), "\(entry.id) has no row in throwRows")
        }
        #expect(covered.count == throwRows.count, "one row per entry")
    }

    @Test(arguments: throwRows)
    func rowMatchesItsEntry(_ row: ThrowRow) {
        #expect(ThrowSiteCatalog.match(row.evidence)?.entry.id == row.id, "origin: \(row.origin)")
    }

    /// The same report with another exception's name: an entry that lists the names it accepts
    /// must not claim it.
    @Test(arguments: throwRows)
    func anotherExceptionNameDoesNotMatch(_ row: ThrowRow) throws {
        let entry = try #require(ThrowSiteCatalog.entry(id: row.id))
        guard !entry.exceptions.isEmpty else { return }
        var evidence = row.evidence
        evidence.exceptionName = "MyAppValidationException"
        #expect(ThrowSiteCatalog.match(evidence)?.entry.id != row.id)
    }

    /// The same raising frames with a reason that says something else: an entry that lists
    /// reasons does not match on its frame when the report's reason is another one.
    @Test(arguments: throwRows)
    func anotherReasonDoesNotMatch(_ row: ThrowRow) throws {
        let entry = try #require(ThrowSiteCatalog.entry(id: row.id))
        guard !entry.reasons.isEmpty else { return }
        let evidence = ThrowEvidence(
            exceptionName: row.name, raisingFrames: row.frames, reason: "Something else went wrong", texts: ["Something else went wrong"])
        #expect(ThrowSiteCatalog.match(evidence)?.entry.id != row.id)
    }

    /// The same reason raised from the app's own code: an entry that has no reasons needs its frame.
    @Test(arguments: throwRows)
    func anAppFrameAloneDoesNotMatch(_ row: ThrowRow) {
        let evidence = ThrowEvidence(exceptionName: row.name, raisingFrames: ["-[MyViewController reload]"], reason: nil, texts: [])
        #expect(ThrowSiteCatalog.match(evidence) == nil)
    }

    @Test func aFrameSharedByTwoRulesSaysNothingWithoutTheReason() {
        // insertObject:atIndex: raises for nil and for an index past the end.
        let evidence = ThrowEvidence(exceptionName: nil, raisingFrames: ["-[__NSArrayM insertObject:atIndex:]"])
        #expect(ThrowSiteCatalog.match(evidence) == nil)
        var withReason = evidence
        withReason.reason = "*** -[__NSArrayM insertObject:atIndex:]: index 4 beyond bounds [0 .. 2]"
        withReason.texts = [withReason.reason ?? ""]
        #expect(ThrowSiteCatalog.match(withReason)?.entry.id == "foundation.array.index-beyond-bounds")
    }

    @Test func theFrameAndTheReasonOutrankTheReasonAlone() {
        // "beyond bounds" is the array rule's reason too; the table view's frame decides.
        let row = throwRows.first { $0.id == "uikit.tableview.scroll-row-out-of-range" }
        let match = row.flatMap { ThrowSiteCatalog.match($0.evidence) }
        #expect(match?.entry.id == "uikit.tableview.scroll-row-out-of-range")
        #expect(match?.frame?.hasPrefix("-[UITableView _contentOffsetForScrollingToRowAtIndexPath:") == true)
        #expect(match?.reasonFragment == "beyond bounds")
    }
}
