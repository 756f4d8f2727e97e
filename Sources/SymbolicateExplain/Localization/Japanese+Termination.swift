// Japanese texts of the knowledge base's termination entries (KB+Termination.swift), by entry ID
// (`KnowledgeEntry.catalogID`): the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseTermination: [String: KnowledgeText] = [
        "terminationNamespace/JETSAM": KnowledgeText(
            title: "メモリ逼迫による強制終了",
            meaning:
                "メモリ状態を管理するサブシステム（jetsam）が、メモリを空けるためにプロセスを強制終了しました。コードは jetsam の理由です（例: 7 は per-process-limit）。これについてのクラッシュレポートはありません。システムは JetsamEvent レポート（bug_type 298）を書きます。そこにはすべてのプロセスが並び、強制終了されたプロセスには 'reason' が付き（per-process-limit や highwater: プロセスが自身の上限を超えた。vm-pageshortage、vm-thrashing、fc-thrashing: システム全体のメモリが不足した）、メモリ量は rpages × pageSize で示されます。",
            causes: [
                "強制終了されたプロセスが自身のメモリ上限（per-process-limit、highwater）を超えた: リーク、またはメモリに保持した画像、キャッシュ、バッファ",
                "プロセスがバックグラウンドにいる間にシステムのメモリが不足した（vm-pageshortage、スラッシング）: 選ばれただけで、原因ではありません",
            ],
            checkNext: [
                "JetsamEvent レポートで強制終了されたプロセスを探してください（symbolicate explain REPORT が、理由とサイズとともにその名前を示します）",
                "per-process-limit: レポートにあるデバイスのモデルで、Instruments（Allocations、Leaks、VM Tracker）を使ってメモリ使用量を測ってください",
                "メモリ警告にはキャッシュの解放で応え、上限より十分低く保ってください（iOS では os_proc_available_memory() で上限までの余裕が分かります）",
                "システムの逼迫によるバックグラウンドでの強制終了は想定内です。バックグラウンドに入るときに状態を保存し、再起動で復元できるようにしてください",
            ]),
        "terminationNamespace/SIGNAL": KnowledgeText(
            title: "通常のシグナル",
            meaning:
                "プロセスはシグナルで終了しました。コードはシグナル番号で、インジケータはその strsignal() の文字列です。終了させたプロセスが 'exc handler' なら、シグナルはプロセス自身の例外から来ています。例外タイプから説明してください。"
        ),
        "terminationNamespace/CODESIGNING": KnowledgeText(
            title: "コード署名による強制終了",
            meaning:
                "コード署名の検証に失敗したため、カーネルがプロセスを強制終了しました。コード: 1 Taskgated Invalid Signature、2 Invalid Page、3 Task Access Port、4 Launch Constraint Violation。",
            causes: [
                "署名の後にバイナリが変更された",
                "プロビジョニングプロファイルが許可していない entitlement（コード 1）",
                "JIT の entitlement なしに実行可能メモリへ書き込んだ",
                "起動の制約（コード 4）",
            ],
            checkNext: [
                "codesign --verify --deep --strict を実行してください",
                "entitlement をプロビジョニングプロファイルと比べてください",
            ]),
        "terminationNamespace/HANGTRACER": KnowledgeText(
            title: "ハングトレーサ",
            meaning: "メインスレッドが応答しないため、ハングトレーサがプロセスを終了させました。",
            checkNext: [
                "メインスレッドのバックトレースで、ブロックしている処理を探してください"
            ]),
        "terminationNamespace/TEST": KnowledgeText(
            title: "テスト",
            meaning: "テストに使う終了理由です。"),
        "terminationNamespace/DYLD": KnowledgeText(
            title: "ダイナミックローダの失敗",
            meaning:
                "dyld がプロセスを開始できなかったか、ライブラリを読み込めませんでした。コード: 1 ライブラリの欠落、2 アーキテクチャの違い、3 バージョンの違い、4 シンボルの欠落、5 コード署名、6 ファイルシステムのサンドボックス、7 不正な Mach-O、9 その他。バックトレースは関係ありません（「terminated at launch; ignore backtrace」）。",
            causes: [
                "リンクしたが埋め込んでいないフレームワーク（Embed & Sign）",
                "間違った runpath の検索パス（@executable_path/Frameworks）",
                "実行時にあるものより新しい SDK やライブラリでビルドしたバイナリ",
            ],
            checkNext: [
                "「Library not loaded」／「Symbol not found」の行を読んでください",
                "バイナリに otool -L を実行し、書き出した IPA の Frameworks フォルダを調べてください",
            ]),
        "terminationNamespace/LIBXPC": KnowledgeText(
            title: "XPC／launchd による終了",
            meaning: "libxpc または launchd がプロセスを終了させました。App Extension でのコード 3 は LAUNCH_HANG です（拡張の初期化に時間がかかりすぎました）。"),
        "terminationNamespace/OBJC": KnowledgeText(
            title: "Objective-C ランタイム",
            meaning: "Objective-C ランタイムがプロセスを中断しました（署名が必要なクラスが署名されていなかった場合など）。"),
        "terminationNamespace/EXEC": KnowledgeText(
            title: "exec の失敗",
            meaning: "カーネルがバイナリの exec に失敗しました（不正な Mach-O、FairPlay の復号、32 ビットのバイナリ、プラットフォームの違い、セキュリティポリシーなど）。コードが失敗の種類を示します。",
            causes: [
                "壊れた、または誤って暗号化されたバイナリ（再署名したアプリでの FairPlay）",
                "32 ビットのバイナリ",
                "別のプラットフォーム向けのバイナリ",
                "Rosetta がない",
            ]),
        "terminationNamespace/SPRINGBOARD": KnowledgeText(
            title: "アプリのライフサイクルのウォッチドッグ（SpringBoard／FrontBoard）",
            meaning:
                "シーン／ライフサイクルの管理者がアプリを強制終了しました。多くはウォッチドッグ（0x8badf00d）ですが、VoIP（0xbaadca11）、熱（0xc00010ff）、セキュリティ（0x2bad45ec）による強制終了もあります。古いレポートは SPRINGBOARD、現在のレポートは FRONTBOARD と表示し、RBSTerminateContext の説明が付きます。",
            checkNext: [
                "コードの意味を調べ、Termination Reason の後の説明文を読んでください"
            ]),
        "terminationNamespace/TCC": KnowledgeText(
            title: "プライバシー（TCC）による強制終了",
            meaning: "アプリが、Info.plist に対応する NS…UsageDescription キーがないまま、プライバシーで保護されたデータ（カメラ、マイク、写真、連絡先、位置情報など）にアクセスしました。メッセージがキーの名前を示します。",
            causes: [
                "使用目的の説明のキーがない",
                "キーはアプリの Info.plist にあるが、拡張の Info.plist にない",
            ],
            checkNext: [
                "示されたキーを、正しいターゲットの Info.plist に追加してください"
            ]),
        "terminationNamespace/REPORTCRASH": KnowledgeText(
            title: "ReportCrash による終了",
            meaning: "ReportCrash が設定した終了理由です。"),
        "terminationNamespace/COREANIMATION": KnowledgeText(
            title: "Core Animation による終了",
            meaning: "Core Animation がプロセスを終了させました。そのメッセージは終了の詳細にあります。"),
        "terminationNamespace/AGGREGATED": KnowledgeText(
            title: "集約",
            meaning: "集約された終了理由です。"),
        "terminationNamespace/RUNNINGBOARD": KnowledgeText(
            title: "バックグラウンド実行の強制（RunningBoard）",
            meaning:
                "RunningBoard はプロセスのアサーションとバックグラウンド実行を管理します: 0xdead10cc（サスペンド時のファイルロック）、0x2182bad2／3／4（バックグラウンドタスク、URL セッション、フェッチの時間超過）、0xd00d2bad、0xbaddd15c、0xc00010ff。",
            checkNext: [
                "コードの意味を調べてください"
            ]),
        "terminationNamespace/SKYWALK": KnowledgeText(
            title: "ネットワークスタック",
            meaning: "Skywalk ネットワークサブシステムがプロセスを終了させました。"),
        "terminationNamespace/SETTINGS": KnowledgeText(
            title: "設定",
            meaning: "設定の変更がプロセスを終了させました（プライバシーの許可が取り消された場合など）。"),
        "terminationNamespace/LIBSYSTEM": KnowledgeText(
            title: "libsystem の障害",
            meaning:
                "libsystem のチェックが失敗しました: 1 ワークループを所有したままスレッドが停止／終了、2 Application Triggered Fault（os_fault_with_payload）、3 SecInit の初期化、4 pthread_t の破壊、5 Application Triggered Fault（os_log_fault）。フォールト 2 と 5 は通常、シミュレートされた致命的でないレポートです。",
            checkNext: [
                "Application Specific Information のメッセージと、クラッシュしたスレッドで、チェックに失敗したシステムライブラリへの呼び出しを読んでください"
            ]),
        "terminationNamespace/FOUNDATION": KnowledgeText(
            title: "Foundation による終了",
            meaning: "Foundation がプロセスを終了させました。"),
        "terminationNamespace/WATCHDOG": KnowledgeText(
            title: "システムサービスのウォッチドッグ",
            meaning: "応答しなくなったシステムサービス（WindowServer など）を watchdogd が強制終了しました。アプリに関係することはまれです。"),
        "terminationNamespace/METAL": KnowledgeText(
            title: "Metal による終了",
            meaning: "Metal がプロセスを終了させました。そのメッセージは終了の詳細にあります。"),
        "terminationNamespace/WATCHKIT": KnowledgeText(
            title: "WatchKit による終了",
            meaning: "WatchKit がプロセスを終了させました。"),
        "terminationNamespace/GUARD": KnowledgeText(
            title: "ガード違反",
            meaning: "EXC_GUARD の違反です。コードは、種類、flavor、対象をまとめたガードコード全体です。",
            checkNext: [
                "コードを解読してください（symbolicate explain 'GUARD <code>'）"
            ]),
        "terminationNamespace/ANALYTICS": KnowledgeText(
            title: "分析",
            meaning: "分析（Analytics）による終了理由です。"),
        "terminationNamespace/SANDBOX": KnowledgeText(
            title: "サンドボックス",
            meaning: "サンドボックスがプロセスを終了させました。そのメッセージは終了の詳細にあります。"),
        "terminationNamespace/SECURITY": KnowledgeText(
            title: "セキュリティ",
            meaning: "セキュリティポリシーがプロセスを終了させました。"),
        "terminationNamespace/ENDPOINTSECURITY": KnowledgeText(
            title: "Endpoint Security による終了",
            meaning: "Endpoint Security のクライアントがプロセスを終了させました（またはクライアントの応答が遅すぎました）。"),
        "terminationNamespace/PAC_EXCEPTION": KnowledgeText(
            title: "ポインタ認証",
            meaning: "ポインタ認証の例外がプロセスを終了させました（arm64e）。"),
        "terminationNamespace/BLUETOOTH_CHIP": KnowledgeText(
            title: "Bluetooth チップ",
            meaning: "Bluetooth チップによる終了理由です。"),
        "terminationNamespace/PORT_SPACE": KnowledgeText(
            title: "Mach ポート空間の枯渇",
            meaning: "プロセスが、システム全体で決まっているプロセスごとの Mach ポートの上限を超えました。ポートのリークです。",
            causes: [
                "リークした XPC 接続、IOKit のハンドル、ランループのソース"
            ]),
        "terminationNamespace/WEBKIT": KnowledgeText(
            title: "WebKit による終了",
            meaning: "WebKit が（Web コンテンツの）プロセスを終了させました。"),
        "terminationNamespace/BACKLIGHTSERVICES": KnowledgeText(
            title: "バックライトサービスのウォッチドッグ",
            meaning: "ディスプレイ／バックライトの状態遷移を監視するウォッチドッグです。システムプロセスだけが対象です。"),
        "terminationNamespace/MEDIA": KnowledgeText(
            title: "メディア",
            meaning: "メディアによる終了理由です。"),
        "terminationNamespace/ROSETTA": KnowledgeText(
            title: "Rosetta による終了",
            meaning: "Rosetta の変換がプロセスを終了させました（対応していない命令など）。"),
        "terminationNamespace/LIBIGNITION": KnowledgeText(
            title: "libignition による終了",
            meaning: "起動初期の libignition による終了理由です。"),
        "terminationNamespace/BOOTMOUNT": KnowledgeText(
            title: "起動時のマウント",
            meaning: "起動時のマウントによる終了理由です。"),
        "terminationNamespace/CAROUSEL": KnowledgeText(
            title: "watchOS のウォッチドッグ",
            meaning:
                "watchOS のバックグラウンドタスクのウォッチドッグです。例: 'CAROUSEL, WatchConnectivity watchdog transgression. Exhausted wall time allowance of 15.00 seconds.'",
            checkNext: [
                "バックグラウンドタスクでの処理を減らし、許された時間内に終えてください"
            ]),
        "namespaceCode/DYLD 1": KnowledgeText(
            title: "ライブラリの欠落",
            meaning: "バイナリがリンクしているライブラリを dyld が見つけられませんでした（'Library not loaded: …'）。",
            causes: [
                "フレームワークがアプリに埋め込まれていない（Embed & Sign）",
                "LD_RUNPATH_SEARCH_PATHS が間違っている",
                "アーキテクチャや App Thinning の設定でライブラリが取り除かれた",
            ],
            checkNext: [
                "'Library not loaded'、'Referenced from'、'tried:' のパスを読んでください",
                "書き出したアプリの Frameworks フォルダを確認してください",
            ]),
        "namespaceCode/DYLD 2": KnowledgeText(
            title: "アーキテクチャの違い",
            meaning: "ライブラリに、この CPU アーキテクチャのスライスがありません。",
            checkNext: [
                "ライブラリに lipo -info を実行し、ARCHS／EXCLUDED_ARCHS を確認してください"
            ]),
        "namespaceCode/DYLD 3": KnowledgeText(
            title: "バージョンの違い",
            meaning: "ライブラリの互換バージョンが、必要なものより古いです。"),
        "namespaceCode/DYLD 4": KnowledgeText(
            title: "シンボルの欠落",
            meaning: "ライブラリは読み込まれましたが、バイナリが必要とするシンボルがその中にありません（'Symbol not found: …'）。",
            causes: [
                "実行時にあるものより新しい SDK やライブラリでビルドした（新しい API は弱リンクにし、利用可能かを確認してください）",
                "ビルド済みフレームワークやモジュールのバージョンの不一致",
            ],
            checkNext: [
                "'Symbol not found'、'Referenced from'、'Expected in' を読んでください",
                "デプロイメントターゲットを API の利用可能なバージョンと比べてください",
            ]),
        "namespaceCode/DYLD 5": KnowledgeText(
            title: "コード署名",
            meaning: "dyld がライブラリのコード署名を拒否しました。"),
        "namespaceCode/DYLD 6": KnowledgeText(
            title: "ファイルシステムのサンドボックス",
            meaning: "サンドボックスが、dyld によるライブラリの読み込みを妨げました。"),
        "namespaceCode/DYLD 7": KnowledgeText(
            title: "不正な Mach-O",
            meaning: "ライブラリの Mach-O ファイルが不正な形式です。"),
        "namespaceCode/DYLD 9": KnowledgeText(
            title: "その他の dyld の失敗",
            meaning: "その他の dyld の失敗です。メッセージの行を読んでください。"),
        "namespaceCode/CODESIGNING 1": KnowledgeText(
            title: "Taskgated による無効な署名",
            meaning: "署名または entitlement が拒否されました（多くは、プロビジョニングプロファイルが許可していない entitlement です）。"),
        "namespaceCode/CODESIGNING 2": KnowledgeText(
            title: "無効なページ",
            meaning: "コードページをページインするときに、署名の検証に失敗しました。",
            causes: [
                "署名の後にバイナリが変更された、または実行中に置き換えられた",
                "実行可能メモリへの書き込み",
            ]),
        "namespaceCode/CODESIGNING 3": KnowledgeText(
            title: "タスクアクセスポート",
            meaning: "タスクポートへのアクセスに対するコード署名のチェックに失敗しました。"),
        "namespaceCode/CODESIGNING 4": KnowledgeText(
            title: "起動の制約の違反",
            meaning: "バイナリが起動の制約に違反しました。"),
        "namespaceCode/LIBSYSTEM 1": KnowledgeText(
            title: "ワークループを所有したまま",
            meaning: "ワークループを所有したまま、スレッドが停止または終了しました。"),
        "namespaceCode/LIBSYSTEM 2": KnowledgeText(
            title: "アプリケーションが発生させたフォールト",
            meaning: "os_fault_with_payload: ライブラリがフォールトを報告しました（FD_SET のオーバーフローなど）。通常はシミュレートされたレポートです。"),
        "namespaceCode/LIBSYSTEM 3": KnowledgeText(
            title: "SecInit の初期化",
            meaning: "セキュリティの初期化に失敗しました。"),
        "namespaceCode/LIBSYSTEM 4": KnowledgeText(
            title: "pthread の破壊",
            meaning: "pthread_t が壊れていました。メモリ破壊です。"),
        "namespaceCode/LIBSYSTEM 5": KnowledgeText(
            title: "アプリケーションが発生させたフォールト（os_log_fault）",
            meaning: "os_log_fault でフォールトが記録されました。通常はシミュレートされたレポートです。"),
        "namespaceCode/LIBXPC 3": KnowledgeText(
            title: "拡張の起動時のハング",
            meaning: "LAUNCH_HANG: App Extension の初期化に時間がかかりすぎました。拡張には main がないため、時間は静的イニシャライザや +load で使われています。",
            checkNext: [
                "静的イニシャライザや +load から処理を移してください",
                "ウォッチドッグによる終了と同じように調べてください",
            ]),
        "namespaceCode/EXEC 1": KnowledgeText(
            title: "不正な Mach-O",
            meaning: "exec に失敗しました: 不正な Mach-O です。"),
        "namespaceCode/EXEC 2": KnowledgeText(
            title: "SUGID の失敗",
            meaning: "exec に失敗しました: set-user-ID／set-group-ID の処理に失敗しました。"),
        "namespaceCode/EXEC 3": KnowledgeText(
            title: "起動スレッドの状態",
            meaning: "exec に失敗しました: 起動スレッドの状態の設定に失敗しました。"),
        "namespaceCode/EXEC 4": KnowledgeText(
            title: "スタックの確保",
            meaning: "exec に失敗しました: スタックを確保できませんでした。"),
        "namespaceCode/EXEC 5": KnowledgeText(
            title: "文字列の初期化",
            meaning: "exec に失敗しました: 文字列の初期化に失敗しました。"),
        "namespaceCode/EXEC 6": KnowledgeText(
            title: "文字列のコピーアウト",
            meaning: "exec に失敗しました: 文字列をプロセスにコピーできませんでした。"),
        "namespaceCode/EXEC 7": KnowledgeText(
            title: "ダイナミックリンカのコピーアウト",
            meaning: "exec に失敗しました: ダイナミックリンカをプロセスにコピーできませんでした。"),
        "namespaceCode/EXEC 8": KnowledgeText(
            title: "セキュリティポリシー",
            meaning: "exec に失敗しました: セキュリティポリシーが拒否しました。"),
        "namespaceCode/EXEC 9": KnowledgeText(
            title: "taskgated による拒否",
            meaning: "exec に失敗しました: taskgated が拒否しました。"),
        "namespaceCode/EXEC 10": KnowledgeText(
            title: "FairPlay の復号",
            meaning: "exec に失敗しました: FairPlay の復号に失敗しました。"),
        "namespaceCode/EXEC 11": KnowledgeText(
            title: "復号",
            meaning: "exec に失敗しました: 復号に失敗しました。"),
        "namespaceCode/EXEC 12": KnowledgeText(
            title: "UPX（不正な Mach-O ヘッダ）",
            meaning: "exec に失敗しました: UPX（不正な Mach-O ヘッダ）です。"),
        "namespaceCode/EXEC 13": KnowledgeText(
            title: "32 ビットは実行できない",
            meaning: "exec に失敗しました: 32 ビットのバイナリは実行できません。"),
        "namespaceCode/EXEC 14": KnowledgeText(
            title: "プラットフォームの違うバイナリ",
            meaning: "exec に失敗しました: 別のプラットフォーム向けのバイナリです。"),
        "namespaceCode/EXEC 15": KnowledgeText(
            title: "メインの FD の確保",
            meaning: "exec に失敗しました: メインのファイルディスクリプタを確保できませんでした。"),
        "namespaceCode/EXEC 16": KnowledgeText(
            title: "Rosetta のコピーアウト",
            meaning: "exec に失敗しました: Rosetta をプロセスにコピーできませんでした。"),
        "namespaceCode/EXEC 17": KnowledgeText(
            title: "dyld 情報の設定",
            meaning: "exec に失敗しました: dyld の情報を設定できませんでした。"),
        "namespaceCode/EXEC 18": KnowledgeText(
            title: "マシンスレッド",
            meaning: "exec に失敗しました: マシンスレッドの作成に失敗しました。"),
        "namespaceCode/EXEC 19": KnowledgeText(
            title: "不正な posix_spawn の属性",
            meaning: "exec に失敗しました: posix_spawn の属性が不正です。"),
        "terminationCode/0x8badf00d": KnowledgeText(
            title: "ウォッチドッグのタイムアウト（\"ate bad food\"）",
            meaning:
                "アプリが時間内に応答しなかったため、ウォッチドッグが強制終了しました。起動中（scene-create）、UI の更新中（scene-update。メインスレッドが忙しい）、バックグラウンドへの移行中や終了中（process-exit）に起きます。時間の大半を使ったコードは、すでに終わっていることがあります。",
            causes: [
                "メインスレッドでの同期的なネットワーク通信。Data(contentsOf:)、String(contentsOf:)、到達性の確認、DNS の名前解決など、見えにくい場合も含みます",
                "メインスレッドのデッドロック: メインから DispatchQueue.main.sync を呼んだ、メインスレッドでセマフォやロックを待った",
                "メインスレッドでの重い処理: 大きな JSON やモデルの解析、同期的な Core Data のマイグレーション、Vision のリクエスト",
                "application(_:didFinishLaunchingWithOptions:) での処理が多すぎる",
            ],
            checkNext: [
                "メインスレッドのバックトレースを読んでください。semaphore_wait_trap、__ulock_wait、_dispatch_sync_f_slow、mach_msg_trap、同期的な URL リクエストは、ブロックしていることを示します",
                "'Elapsed application CPU time' を許容された実時間と比べてください。CPU 時間が長ければ計算で忙しく、短ければ待機でブロックされています",
                "App Launch／Time Profiler テンプレートで起動をプロファイルし、処理をメインスレッドから移してください",
            ]),
        "terminationCode/0xc00010ff": KnowledgeText(
            title: "熱による強制終了（\"cool off\"）",
            meaning: "熱に関するイベントのため、システムがアプリを強制終了しました。デバイスや周囲の環境に固有のことがあります。",
            causes: [
                "持続的な CPU／GPU の高負荷: カメラ、AR、機械学習、ゲーム",
                "暑い環境、または充電中のデバイス",
            ],
            checkNext: [
                "ProcessInfo.thermalState とその変更通知を監視し、serious や critical になったら処理（フレームレート、カメラ、機械学習、位置情報の精度）を減らしてください",
                "Xcode の Devices ウインドウの熱状態のデバイス条件を使って、高温の状態で再現してください（iOS デバイス）",
            ]),
        "terminationCode/0xdead10cc": KnowledgeText(
            title: "サスペンド時のファイルロック（\"deadlock\"）",
            meaning: "ファイルロックや SQLite データベースのロックを保持したまま、アプリがサスペンドされました。多くは共有の App Group コンテナにあるデータベースです。",
            causes: [
                "アプリや拡張がサスペンドされたときに、SQLite／Core Data／Realm／GRDB の書き込みがまだ進行中だった",
                "書き込みの前後でバックグラウンドタスクを要求していない",
            ],
            checkNext: [
                "書き込みを始める前に beginBackgroundTask(withName:expirationHandler:)（拡張では ProcessInfo.beginActivity）でバックグラウンドの時間を要求してください",
                "サスペンドの前に書き込みを終えてロックを解放してください。fsync や sqlite のコミットの中にいる別のスレッドを探してください",
            ]),
        "terminationCode/0xbaadca11": KnowledgeText(
            title: "CallKit の通話なしの VoIP プッシュ（\"bad call\"）",
            meaning: "アプリは PushKit の VoIP プッシュを受け取りましたが、着信を時間内に CallKit に報告しませんでした。失敗が続くと、アプリに VoIP プッシュが届かなくなることがあります。",
            causes: [
                "pushRegistry(_:didReceiveIncomingPushWith:for:completion:) のコールバックが戻る前に reportNewIncomingCall を呼んでいない",
                "通話を報告する前に、非同期の処理を挟んだか、早く return した",
            ],
            checkNext: [
                "バックグラウンドやロック中の起動を含むすべての経路で、非同期の処理の前に同期的に通話を報告してください"
            ]),
        "terminationCode/0xbad22222": KnowledgeText(
            title: "VoIP アプリの再開が多すぎる",
            meaning: "VoIP アプリの再開が頻繁すぎました（古いレポート: 'SBUnsuspendLimit … exceeded 15 wakes in 300 sec'）。",
            causes: [
                "バックグラウンドでのソケットのキープアライブや再接続のループ"
            ],
            checkNext: [
                "VoIP のバックグラウンドモードと再接続の処理を確認してください"
            ]),
        "terminationCode/0xbaddd15c": KnowledgeText(
            title: "ディスクの空き容量不足（\"bad disc\"）",
            meaning: "ディスクの空き容量を取り戻すためにキャッシュを削除する間に、システムがアプリを強制終了しました。",
            checkNext: [
                "アプリが書き込む量を最小限にし、ファイルの寿命を管理してください"
            ]),
        "terminationCode/0xc51bad01": KnowledgeText(
            title: "watchOS のバックグラウンドタスクが CPU を使いすぎた",
            meaning: "CPU 時間を使いすぎたバックグラウンドタスクを、watchOS が強制終了しました。",
            checkNext: [
                "バックグラウンドの処理の CPU 効率を上げるか、処理を減らしてください"
            ]),
        "terminationCode/0xc51bad02": KnowledgeText(
            title: "watchOS のバックグラウンドタスクの時間超過",
            meaning: "許された時間内に終わらなかったバックグラウンドタスクを、watchOS が強制終了しました。",
            checkNext: [
                "バックグラウンドタスクでの処理を減らしてください"
            ]),
        "terminationCode/0xc51bad03": KnowledgeText(
            title: "watchOS のバックグラウンドタスクの時間不足",
            meaning: "システムが忙しい間に、watchOS のバックグラウンドタスクの時間が尽きました。アプリの問題とは限りません。"),
        "terminationCode/0xd00d2bad": KnowledgeText(
            title: "システムリソースの使いすぎ（\"dude, too bad\"）",
            meaning: "アプリが重要なシステムリソースを過剰に使いました。",
            checkNext: [
                "並列度を下げ、前の処理が終わってから新しい処理を始めてください"
            ]),
        "terminationCode/0x2182bad2": KnowledgeText(
            title: "バックグラウンドタスクの時間超過",
            meaning: "beginBackgroundTask で始めたバックグラウンドタスクが、期限切れの前に終了しませんでした。",
            causes: [
                "ある経路で、beginBackgroundTask に対応する endBackgroundTask がない",
                "期限切れのハンドラがタスクを終了させていない",
            ],
            checkNext: [
                "すべての beginBackgroundTask を、期限切れのハンドラの中も含めて endBackgroundTask と対にしてください"
            ]),
        "terminationCode/0x2182bad3": KnowledgeText(
            title: "バックグラウンドの URL セッションの時間超過",
            meaning: "バックグラウンドの URLSession のイベントが時間内に処理されなかったか、その完了ハンドラが呼ばれませんでした。",
            checkNext: [
                "urlSessionDidFinishEvents(forBackgroundURLSession:) から完了ハンドラを呼んでください"
            ]),
        "terminationCode/0x2182bad4": KnowledgeText(
            title: "バックグラウンドフェッチの時間超過",
            meaning: "バックグラウンドフェッチが時間内に完了ハンドラを呼びませんでした。",
            checkNext: [
                "すべての経路で、バックグラウンドフェッチの完了ハンドラを呼んでください"
            ]),
        "terminationCode/0x2bad45ec": KnowledgeText(
            title: "セキュリティ違反／安全でない描画（\"too bad for security\"）",
            meaning: "セキュリティ違反です。'Process detected doing insecure drawing while in secure mode' とあれば、デバイスがロック中やセキュアモードの間にアプリが描画しました。",
            causes: [
                "willResignActive／didEnterBackground の後の描画（Metal、OpenGL、Core Animation）",
                "フレームを表示し続けるビデオや AR のパイプライン",
            ],
            checkNext: [
                "アプリがアクティブでなくなったら描画を止めてください"
            ]),
        "terminationCode/0xbaaaaaad": KnowledgeText(
            title: "スタックショット（クラッシュではありません）",
            meaning: "クラッシュではありません。システム全体のスタックショットで、サイドボタンと音量ボタンを同時に押して誤って取得されることがよくあります。"),
        "terminationCode/0xdeadfa11": KnowledgeText(
            title: "ユーザによる強制終了（\"dead fall\"）",
            meaning: "ユーザが古い iOS のボタン操作でアプリを強制終了しました。App スイッチャーからの終了では起きません。古い TN2151 の第三者によるコピーにだけあり、現在の Apple のページには載っていません。"),
        "terminationCode/0xfeedfacf": KnowledgeText(
            title: "終了コードではない（Mach-O のマジック）",
            meaning: "クラッシュの理由ではありません。0xfeedfacf は MH_MAGIC_64、つまり 64 ビット Mach-O のヘッダのマジックナンバーです。レポートにあれば、多くは終了理由ではなく、ヘッダやイメージを読んだものです。"),
        "terminationCode/0xdeadfeed": KnowledgeText(
            title: "起動中の依存先のタイムアウト（未検証）",
            meaning: "第三者の報告によれば、プロセスが依存するサービスが起動中にタイムアウトしたことを示します。Apple のドキュメントにはありません。"),
        "jetsamReason/generic": KnowledgeText(
            title: "jetsam の理由: generic",
            meaning: "一般的なメモリ逼迫による強制終了です。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/highwater": KnowledgeText(
            title: "jetsam の理由: highwater",
            meaning: "デーモンが想定されたメモリ使用量（ハイウォーターマーク）を超えました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/vnode-limit": KnowledgeText(
            title: "jetsam の理由: vnode-limit",
            meaning: "システム全体で開いているファイルが多すぎます。原因ではないバックグラウンドのアプリが対象になることがあります。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/vm-pageshortage": KnowledgeText(
            title: "jetsam の理由: vm-pageshortage",
            meaning: "システムが最前面のアプリのためにメモリを必要とし、この（多くはバックグラウンドの）プロセスを強制終了しました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/proc-thrashing": KnowledgeText(
            title: "jetsam の理由: proc-thrashing",
            meaning: "プロセスのスラッシングです。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/fc-thrashing": KnowledgeText(
            title: "jetsam の理由: fc-thrashing",
            meaning: "ファイルキャッシュのスラッシングです。たとえば、大きなメモリマップファイルへのランダムアクセスです。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/per-process-limit": KnowledgeText(
            title: "jetsam の理由: per-process-limit",
            meaning: "プロセスが自身の常駐メモリの上限を超えました。App Extension の上限はアプリよりずっと低いです。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/disk-space-shortage": KnowledgeText(
            title: "jetsam の理由: disk-space-shortage",
            meaning: "ディスクの空き容量が不足したため、強制終了されました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/idle-exit": KnowledgeText(
            title: "jetsam の理由: idle-exit",
            meaning: "メモリを空けるために、アイドル状態のプロセスが終了させられました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/zone-map-exhaustion": KnowledgeText(
            title: "jetsam の理由: zone-map-exhaustion",
            meaning: "カーネルのゾーンマップが枯渇しました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/vm-compressor-thrashing": KnowledgeText(
            title: "jetsam の理由: vm-compressor-thrashing",
            meaning: "メモリ圧縮機構がスラッシングを起こしていました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/vm-compressor-space-shortage": KnowledgeText(
            title: "jetsam の理由: vm-compressor-space-shortage",
            meaning: "メモリ圧縮機構の領域が足りなくなりました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/lowswap": KnowledgeText(
            title: "jetsam の理由: lowswap",
            meaning: "スワップ領域が少なくなりました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/sustained-pressure": KnowledgeText(
            title: "jetsam の理由: sustained-pressure",
            meaning: "メモリの逼迫が続きました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/vm-pageout-starvation": KnowledgeText(
            title: "jetsam の理由: vm-pageout-starvation",
            meaning: "ページアウトが進まなくなりました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/conclave-limit": KnowledgeText(
            title: "jetsam の理由: conclave-limit",
            meaning: "conclave のメモリ上限です。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/long-idle-exit": KnowledgeText(
            title: "jetsam の理由: long-idle-exit",
            meaning: "長くアイドル状態だったプロセスが終了させられました。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/cpulimit": KnowledgeText(
            title: "jetsam の理由: cpulimit",
            meaning: "メモリ状態のサブシステムを通じた、CPU の上限による強制終了です。",
            checkNext: [
                "JetsamEvent レポートを読んでください。強制終了されたプロセスには 'reason' キーがあり、メモリ量は rpages × pageSize です"
            ]),
        "jetsamReason/jettisoned": KnowledgeText(
            title: "jetsam の理由: jettisoned",
            meaning: "名前の付いた理由以外の理由で、jetsam によって強制終了されました。"),
        "reportType/bug_type 309": KnowledgeText(
            title: "クラッシュレポート",
            meaning: "クラッシュレポートです（完全なコープス）。"),
        "reportType/bug_type 308": KnowledgeText(
            title: "軽量なクラッシュ（OSFault）",
            meaning: "軽量なコープスまたは os_fault によるクラッシュです。"),
        "reportType/bug_type 385": KnowledgeText(
            title: "EXC_RESOURCE のレポート",
            meaning: "リソースの上限のレポートです（ExcResource_…）。通常はクラッシュではありません。"),
        "reportType/bug_type 327": KnowledgeText(
            title: "EXC_RESOURCE THREADS のレポート",
            meaning: "スレッド数の上限のリソースレポートです。"),
        "reportType/bug_type 298": KnowledgeText(
            title: "jetsam イベントのレポート",
            meaning: "クラッシュレポートではありません。jetsam がメモリのためにプロセスを強制終了したときに書かれる、システム全体のメモリのスナップショットです。強制終了されたプロセスには 'reason' キーがあります。"),
        "reportType/bug_type 288": KnowledgeText(
            title: "スタックショット",
            meaning: "クラッシュではありません。システム全体のスタックショットです。"),
        "reportType/bug_type 210": KnowledgeText(
            title: "カーネルパニック",
            meaning: "アプリではなく、システム全体がパニックを起こしました。"),
        "reportType/bug_type 409": KnowledgeText(
            title: "システムのウォッチドッグ",
            meaning: "応答しないシステムサービスについての、ユーザ空間のウォッチドッグのレポートです。"),
        "reportType/bug_type 202": KnowledgeText(
            title: "CPU 使用量の microstackshot",
            meaning: "CPU 使用量の診断情報です（cpu_resource）。プロセスが強制終了された場合も、されなかった場合もあります。"),
        "reportType/bug_type 145": KnowledgeText(
            title: "ディスク書き込みの microstackshot",
            meaning: "ディスク書き込みの診断情報です（diskwrites_resource）。クラッシュではありません。"),
        "reportType/bug_type 109": KnowledgeText(
            title: "旧形式のクラッシュレポート",
            meaning: "旧形式のクラッシュレポートです。JSON のヘッダの後にテキストの本文が続きます（iOS 14 以前）。"),
    ]
}
