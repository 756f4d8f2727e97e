// Japanese texts of the knowledge base's messages entries (KB+Messages.swift), by entry ID
// (`KnowledgeEntry.catalogID`): the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseMessages: [String: KnowledgeText] = [
        "swiftRuntimeMessage/Unexpectedly found nil while unwrapping an Optional value": KnowledgeText(
            title: "nil の強制アンラップ",
            meaning: "nil だった Optional に、強制アンラップ（!）が使われました。",
            causes: [
                "存在すると思い込んでいた値（辞書の検索、URL(string:)、first、失敗可能なイニシャライザ）が nil だった"
            ],
            checkNext: [
                "クラッシュした行で ! を探し、if let／guard let に置き換えて nil の場合を処理してください"
            ]),
        "swiftRuntimeMessage/Unexpectedly found nil while implicitly unwrapping an Optional value": KnowledgeText(
            title: "nil の暗黙的アンラップ",
            meaning: "暗黙的アンラップ Optional（Type!）が nil のときに使われました。",
            causes: [
                "viewDidLoad の前に使われた、または接続されていない @IBOutlet",
                "初期化が終わる前に読まれたプロパティ",
            ],
            checkNext: [
                "アウトレットの接続と初期化の順序を確認してください"
            ]),
        "swiftRuntimeMessage/Could not cast value of type": KnowledgeText(
            title: "強制キャスト（as!）の失敗",
            meaning: "as! キャストが失敗しました。値の動的な型が目的の型ではありません（メッセージに両方の型があります）。",
            causes: [
                "想定外の型の、デコードまたはブリッジされたデータ",
                "サブクラスやプロトコルについての誤った思い込み",
            ],
            checkNext: [
                "as? を使い、失敗した場合を処理してください"
            ]),
        "swiftRuntimeMessage/Index out of range": KnowledgeText(
            title: "配列のインデックスが範囲外",
            meaning: "Array（または ContiguousArray）の添字が 0..<count の外でした。",
            causes: [
                "配列が変わった後の古い count やインデックス",
                "1 つずれたループ",
                "空の配列への添字アクセス",
            ],
            checkNext: [
                "クラッシュした行で、インデックスを indices／count と照らし合わせてください"
            ]),
        "swiftRuntimeMessage/Range out of bounds": KnowledgeText(
            title: "スライスや範囲がコレクションの外",
            meaning: "スライスや replaceSubrange が、コレクションの外の境界を使いました。",
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/Range requires lowerBound <= upperBound": KnowledgeText(
            title: "逆転した範囲",
            meaning: "a > b のまま、範囲 a..<b または a...b が作られました。",
            causes: [
                "計算した境界で、終わりが始まりより前になった（空の入力など）"
            ],
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/arithmetic overflow": KnowledgeText(
            title: "整数のオーバーフロー",
            meaning: "固定幅の整数での +、-、* がオーバーフローしました（Swift はラップアラウンドせずにトラップします）。",
            causes: [
                "Int32／UInt8 などを超えるカウンタやサイズ",
                "符号なしの型で負の値になる引き算",
            ],
            checkNext: [
                "より広い型、チェック付きの演算（addingReportingOverflow）、またはラップアラウンドが意図どおりなら &+ を使ってください"
            ]),
        "swiftRuntimeMessage/Division by zero": KnowledgeText(
            title: "ゼロ除算",
            meaning: "整数の / や % の除数が 0 でした。または Int.min / -1 がオーバーフローしました。",
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/Not enough bits to represent the passed value": KnowledgeText(
            title: "整数の変換で範囲外",
            meaning: "Int32(x) や UInt8(x) などの整数の変換に、収まらない値が渡されました。",
            checkNext: [
                "init(exactly:) や init(clamping:) を使い、失敗した場合を処理してください"
            ]),
        "swiftRuntimeMessage/Double value cannot be converted to Int": KnowledgeText(
            title: "浮動小数点数から整数への変換の失敗",
            meaning: "Int(someDouble) に NaN、無限大、または Int には大きすぎる値が渡されました。",
            checkNext: [
                "変換の前に isFinite と範囲を確認し、Int(exactly:) を使ってください"
            ]),
        "swiftRuntimeMessage/Can't remove last element from an empty collection": KnowledgeText(
            title: "空のコレクションからの削除",
            meaning: "空のコレクションで removeLast()／removeFirst() が呼ばれました。",
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/Negative count": KnowledgeText(
            title: "負の個数",
            meaning: "負の個数が渡されました（Array(repeating:count:)、dropFirst、prefix など）。",
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/Duplicate keys of type": KnowledgeText(
            title: "キーが重複した Dictionary",
            meaning:
                "Dictionary が等しいキーを 2 つ見つけました。キーの型の == と hash(into:) が食い違っているか、挿入の後にキーが変更されました（フレーム KEY_TYPE_OF_DICTIONARY_VIOLATES_HASHABLE_REQUIREMENTS）。",
            checkNext: [
                "== と hash(into:) が同じプロパティを使うようにしてください。Dictionary や Set に格納したキーは決して変更しないでください"
            ]),
        "swiftRuntimeMessage/Attempted to read an unowned reference but object was already deallocated": KnowledgeText(
            title: "unowned 参照がオブジェクトより長く生きた",
            meaning: "unowned 参照が、指しているオブジェクトの解放後に使われました。",
            checkNext: [
                "unowned の代わりに weak を使い（クロージャのキャプチャリストなど）、nil を処理してください"
            ]),
        "swiftRuntimeMessage/Simultaneous accesses": KnowledgeText(
            title: "排他アクセスの違反",
            meaning: "Swift ランタイムの排他アクセスのチェックが、同じ変数への重なったアクセスで、一方が変更するものを見つけました。",
            causes: [
                "プロパティを inout で渡しながら、それを読んでもいる",
                "2 つのスレッドからの同期なしのアクセス",
            ],
            checkNext: [
                "'Previous access'／'Current access' の行を読み、呼び出しの前に値をコピーするか、同期してください"
            ]),
        "swiftRuntimeMessage/'try!' expression unexpectedly raised an error": KnowledgeText(
            title: "エラーを投げた呼び出しへの try!",
            meaning: "try! の呼び出しがエラーを投げました（ランタイムは swift_unexpectedError でこれを報告します）。",
            checkNext: [
                "try! を do/catch または try? に置き換え、メッセージにあるエラーを処理してください"
            ]),
        "swiftRuntimeMessage/Error raised at top level": KnowledgeText(
            title: "トップレベルで捕捉されなかったエラー",
            meaning: "トップレベルのコードや main からエラーが投げられ、誰も捕捉しませんでした。",
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/unexpected enum case": KnowledgeText(
            title: "想定外の enum の値",
            meaning: "frozen でない enum や C の enum に対する switch が、一致する case のない raw value に出会いました。",
            causes: [
                "新しい OS やサーバが新しい case を返した",
                "enum の値のメモリ破壊",
            ],
            checkNext: [
                "@unknown default の処理を追加してください"
            ]),
        "swiftRuntimeMessage/precondition failure": KnowledgeText(
            title: "precondition の失敗",
            meaning: "precondition または preconditionFailure が失敗しました。最適化ビルドではメッセージが取り除かれ、この固定の理由だけが残ります。",
            checkNext: [
                "フレーム 0 をシンボリケートしてください。失敗した precondition はそのファイルと行にあります"
            ]),
        "swiftRuntimeMessage/Fatal error": KnowledgeText(
            title: "Swift の致命的なエラー",
            meaning: "Swift が fatalError または標準ライブラリのチェックでプログラムを止めました。'Fatal error:' の後の文字列が理由です。",
            checkNext: [
                "メッセージと、その前にファイル:行があればそれを読んでください",
                "フレーム 0 をシンボリケートしてください",
            ]),
        "swiftRuntimeMessage/Assertion failed": KnowledgeText(
            title: "Swift の assert の失敗",
            meaning: "デバッグビルドの assert() が失敗しました。",
            checkNext: [
                "フレーム 0〜1 をシンボリケートして、失敗したチェックのファイルと行を確認してください"
            ]),
        "swiftRuntimeMessage/Swift runtime failure": KnowledgeText(
            title: "Swift ランタイムのチェック（フレーム名）",
            meaning: "最適化ビルドでは、Swift ランタイムのチェックの理由は、人工的なインラインフレーム「Swift runtime failure: <reason>」の名前としてだけ残ります。dSYM でシンボリケートすると見えます。",
            checkNext: [
                "一致する dSYM でシンボリケートし、コロンの後の理由を読んでください",
                "次のフレームがファイルと行を示します",
            ]),
        "concurrencyMessage/SWIFT TASK CONTINUATION MISUSE": KnowledgeText(
            title: "継続（continuation）の二重の再開",
            meaning:
                "チェック付きの continuation が 2 回以上再開され、トラップしました（「leaked its continuation without resuming it」という変種はログに出るだけで、その後タスクは永遠に止まります）。",
            checkNext: [
                "すべての経路で continuation をちょうど 1 回だけ再開するようにしてください"
            ]),
        "concurrencyMessage/Incorrect actor executor assumption": KnowledgeText(
            title: "アクタの外でコードが実行された",
            meaning: "assumeIsolated／preconditionIsolated、または Swift 6 の隔離のチェックが失敗しました。コードが、宣言したものとは別の executor で実行されました。",
            checkNext: [
                "どのコールバックが別のキューから隔離されたコードを呼んだかを探し、明示的に切り替えてください"
            ]),
        "concurrencyMessage/Block was expected to execute on queue": KnowledgeText(
            title: "メインアクタのクロージャがメインキュー以外から呼ばれた",
            meaning:
                "dispatch_assert_queue が失敗しました（フレーム _dispatch_assert_queue_fail）。多くは、Swift 6 モードで @MainActor と推論されたクロージャが、API からバックグラウンドのキューで呼ばれた場合です。",
            checkNext: [
                "コールバックを @Sendable／nonisolated にし、明示的にメインアクタへ切り替えてください"
            ]),
        "concurrencyMessage/dispatch_sync called on queue already owned by current thread": KnowledgeText(
            title: "dispatch_sync のデッドロックの検出",
            meaning: "dispatch_sync（DispatchQueue.sync）が、スレッドがすでに実行中のキューを対象にしました。必ずデッドロックするため、libdispatch がクラッシュに変えます。",
            checkNext: [
                "sync での切り替えをやめるか、async を使ってください"
            ]),
        "concurrencyMessage/BUG IN CLIENT OF LIBDISPATCH": KnowledgeText(
            title: "Dispatch API の誤用",
            meaning: "libdispatch が API の誤用を検出してトラップしました。文字列が違反したルールを示します（サスペンド中のオブジェクトの解放、過剰な resume、使用中のセマフォの破棄など）。",
            checkNext: [
                "メッセージの残りを読み、suspend/resume、enter/leave、wait/signal の対応が取れているか確認してください"
            ]),
        "applicationSpecificMessage/abort() called": KnowledgeText(
            title: "abort() の呼び出し",
            meaning: "プロセスが abort() を呼び出しました。理由は別の場所にあります: 例外、アサーション、または abort を呼んだコードです。",
            checkNext: [
                "クラッシュしたスレッドを abort から上にたどり、あなたのコードの最初のフレームまで読んでください"
            ]),
        "applicationSpecificMessage/__stack_chk_fail": KnowledgeText(
            title: "スタックのバッファオーバーフローの検出",
            meaning: "スタックカナリアが上書きされました（または libc の fortify がバッファオーバーフローを検出しました）。スタック上のメモリ破壊で、多くは C 系や unsafe なコードでのバッファオーバーフローです。",
            checkNext: [
                "Address Sanitizer で再現してください",
                "下のフレームで、strcpy／sprintf／memcpy が書き込む固定サイズのバッファを確認してください",
            ]),
        "applicationSpecificMessage/pointer being freed was not allocated": KnowledgeText(
            title: "ヒープの破壊／二重解放",
            meaning: "malloc が、二重解放、自分が返していないポインタの解放、またはヒープの破壊を検出しました（フレーム ___BUG_IN_CLIENT_OF_LIBMALLOC_…）。",
            checkNext: [
                "Address Sanitizer、または Guard Malloc／Malloc Scribble で再現してください"
            ]),
        "applicationSpecificMessage/terminating due to uncaught exception of type": KnowledgeText(
            title: "捕捉されなかった C++ 例外",
            meaning: "C++ の例外（または C++ を通り抜けた Objective-C の例外）が捕捉されず、libc++abi が abort を呼び出しました。C++ の throw には例外のバックトレースがありません。",
            checkNext: [
                "例外の型とメッセージを読み、クラッシュしたスレッドで例外を投げた呼び出しを探してください"
            ]),
        "applicationSpecificMessage/Terminating app due to uncaught exception": KnowledgeText(
            title: "捕捉されなかった Objective-C 例外",
            meaning: "Objective-C の例外が投げられ、捕捉されなかったため、アプリが中断しました。名前と理由はメッセージの続きにあり、Last Exception Backtrace が投げられた場所を示します。",
            checkNext: [
                "Last Exception Backtrace を上から、あなたのコードの最初のフレームまで読んでください",
                "再現するときは例外ブレークポイントを設定してください",
            ]),
        "applicationSpecificMessage/multi-threaded process forked": KnowledgeText(
            title: "fork した子プロセスでのクラッシュ",
            meaning:
                "プロセスが複数のスレッドを持ったまま fork() を呼び出し、子が exec の前にクラッシュしました（'crashed on child side of fork pre-exec'）。子では async-signal-safe な呼び出しだけが許されます。fork の時点でほかのスレッドが持っていたロックは、ずっとロックされたままです。",
            causes: [
                "fork() と exec() の間で、async-signal-safe でないコード（malloc、Objective-C、Swift ランタイム、dispatch）を呼んだ"
            ],
            checkNext: [
                "fork() の代わりに posix_spawn や Process を使ってください。そうでなければ、exec の前には async-signal-safe な関数だけを呼んでください"
            ]),
        "applicationSpecificMessage/objc_msgSend() selector name": KnowledgeText(
            title: "objc_msgSend の中でのクラッシュ",
            meaning: "名前の付いたセレクタを送る途中、objc_msgSend の中でクラッシュしました。受け手は、解放済みの（過剰に解放された）オブジェクトか、不正なポインタだった可能性が最も高いです。",
            checkNext: [
                "Zombies を有効にして再現し、受け手の所有関係を確認してください"
            ]),
        "objcException/NSInvalidArgumentException": KnowledgeText(
            title: "不正な引数",
            meaning: "メソッドが受け付けない引数を受け取りました。",
            causes: [
                "NSArray／NSDictionary に nil を挿入した（'object cannot be nil'）",
                "'unrecognized selector sent to instance': 受け手の型の誤り、壊れたストーリーボードのアクション、またはメモリが再利用されたゾンビ",
                "オブジェクトとキーの数の不一致、NSCoding に準拠しないオブジェクトのアーカイブ",
            ],
            checkNext: [
                "reason に 'unrecognized selector' とあれば、reason にある受け手のクラスを確認してください。筋が通らなければゾンビを疑ってください",
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください",
            ]),
        "objcException/NSRangeException": KnowledgeText(
            title: "インデックスや範囲が範囲外",
            meaning: "インデックスや範囲が、コレクション、文字列、データの範囲の外でした（'index 12 beyond bounds [0 .. 0]'）。",
            causes: [
                "古い count やインデックス",
                "インデックスとして使われた NSNotFound",
                "負の数から計算した範囲の長さ",
                "登録されていない KVO オブザーバの削除",
            ],
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSInternalInconsistencyException": KnowledgeText(
            title: "内部の不整合",
            meaning: "API が、内部の状態や呼び出し側との約束が破られたことを検出しました。",
            causes: [
                "行数の合わないテーブル／コレクションビューの一括更新",
                "メインスレッド以外からの UI の使用",
                "変更できないコレクションの変更",
                "PushKit: VoIP プッシュが CallKit に報告されていない",
            ],
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSGenericException": KnowledgeText(
            title: "一般的な例外",
            meaning: "Foundation の一般的な例外です。reason が説明しています。",
            causes: [
                "列挙中のコレクションの変更（'Collection was mutated while being enumerated'）"
            ],
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSUnknownKeyException": KnowledgeText(
            title: "キー値コーディングのキーが見つからない",
            meaning: "setValue:forUndefinedKey: — クラスがそのキーについてキー値コーディングに準拠していません。多くは、ストーリーボードや xib に残った古い IBOutlet の接続です。",
            checkNext: [
                "reason にあるアウトレットを削除するか、接続し直してください",
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください",
            ]),
        "objcException/NSObjectInaccessibleException": KnowledgeText(
            title: "オブジェクトにアクセスできない",
            meaning: "分散オブジェクトに、間違ったスレッドからアクセスしました。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSObjectNotAvailableException": KnowledgeText(
            title: "オブジェクトが利用できない",
            meaning: "分散オブジェクトでオブジェクトが利用できませんでした。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSDestinationInvalidException": KnowledgeText(
            title: "宛先が無効",
            meaning: "分散オブジェクトの宛先がもう有効ではありません。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSPortTimeoutException": KnowledgeText(
            title: "ポートのタイムアウト",
            meaning: "ポートでの送信または受信がタイムアウトしました。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSInvalidSendPortException": KnowledgeText(
            title: "無効な送信ポート",
            meaning: "送信ポートが無効です。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSInvalidReceivePortException": KnowledgeText(
            title: "無効な受信ポート",
            meaning: "受信ポートが無効です。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSPortSendException": KnowledgeText(
            title: "ポートでの送信の失敗",
            meaning: "ポートでの送信に失敗しました。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSPortReceiveException": KnowledgeText(
            title: "ポートでの受信の失敗",
            meaning: "ポートでの受信に失敗しました。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSMallocException": KnowledgeText(
            title: "メモリ確保の失敗",
            meaning: "メモリを確保できませんでした。メモリ不足か、ありえないサイズです（多くは負の数から計算されたものです）。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSInconsistentArchiveException": KnowledgeText(
            title: "不整合なアーカイブ",
            meaning: "アーカイブを矛盾なくデコードできませんでした。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSFileHandleOperationException": KnowledgeText(
            title: "ファイルハンドルの操作の失敗",
            meaning: "NSFileHandle での読み込みや書き込みに失敗しました（相手側が閉じた場合など）。",
            checkNext: [
                "エラーを投げる FileHandle の API（read(upToCount:)、write(contentsOf:)）を使ってください",
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください",
            ]),
        "objcException/NSCharacterConversionException": KnowledgeText(
            title: "文字の変換の失敗",
            meaning: "文字列を指定のエンコーディングに変換できませんでした。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSParseErrorException": KnowledgeText(
            title: "解析エラー",
            meaning: "プロパティリストや文字列を解析できませんでした。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSDecimalNumberDivideByZeroException": KnowledgeText(
            title: "10 進数のゼロ除算",
            meaning: "NSDecimalNumber でのゼロ除算です。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSInvalidArchiveOperationException": KnowledgeText(
            title: "無効なアーカイブ操作",
            meaning: "アーカイブに失敗しました（セキュアコーディングに対応しないオブジェクトなど）。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "objcException/NSInvalidUnarchiveOperationException": KnowledgeText(
            title: "無効なアンアーカイブ操作",
            meaning: "アンアーカイブに失敗しました（セキュアコーディングで許可されていないクラスなど）。",
            checkNext: [
                "Last Exception Backtrace を、あなたのコードの最初のフレームまで読んでください"
            ]),
        "dyldError/Library not loaded": KnowledgeText(
            title: "ライブラリの欠落",
            meaning: "バイナリがリンクしているライブラリを dyld が見つけられませんでした。",
            causes: [
                "リンクしたが埋め込んでいないフレームワーク（Embed & Sign）",
                "間違った @rpath の検索パス",
                "App Thinning やアーキテクチャの設定で取り除かれたライブラリ",
            ],
            checkNext: [
                "'Referenced from' と試されたパスを読み、アプリの Frameworks フォルダを確認してください"
            ]),
        "dyldError/Symbol not found": KnowledgeText(
            title: "シンボルの欠落",
            meaning: "ライブラリは読み込まれましたが、バイナリが必要とするシンボルがありません。",
            causes: [
                "実行時にあるものより新しい SDK やライブラリのバージョンでビルドした",
                "ビルド済みフレームワークの不一致",
            ],
            checkNext: [
                "'Expected in' を読んでください。新しい API は弱リンクにし、利用可能かのチェックで守ってください"
            ]),
        "frameSymbol/objc_msgSend": KnowledgeText(
            title: "objc_msgSend でのクラッシュ",
            meaning: "スタックの先頭の objc_msgSend、objc_retain、objc_release でのクラッシュは、多くの場合、解放済みの（過剰に解放された）オブジェクトか不正なポインタにメッセージが送られたことを意味します。",
            causes: [
                "過剰に解放されたオブジェクト（ゾンビ）",
                "解放済みオブジェクトへの unsafe_unretained／assign の参照",
                "isa ポインタのメモリ破壊",
            ],
            checkNext: [
                "Zombies を有効にして再現してください",
                "受け手の所有関係を確認し、assign／unsafe_unretained の代わりに weak を使ってください",
            ]),
        "frameSymbol/_assertionFailure": KnowledgeText(
            title: "Swift 標準ライブラリのチェックの失敗",
            meaning:
                "クラッシュしたスレッドにある _assertionFailure／_fatalErrorMessage は、Swift のチェック（fatalError、precondition、標準ライブラリのチェック）がプログラムを止めたことを裏付けます。",
            checkNext: [
                "Application Specific Information の Swift のメッセージを読んでください。その下のフレームが失敗したチェックです"
            ]),
        "frameSymbol/swift_unexpectedError": KnowledgeText(
            title: "try! の失敗",
            meaning: "swift_unexpectedError は、try! の式の呼び出しがエラーを投げたときに呼ばれます。",
            checkNext: [
                "その下のフレームが try! の呼び出しです。代わりにエラーを処理してください"
            ]),
        "frameSymbol/doesNotRecognizeSelector:": KnowledgeText(
            title: "認識されないセレクタ",
            meaning:
                "オブジェクトが実装していないメッセージを受け取り、Objective-C が NSInvalidArgumentException を投げました。受け手のクラスが筋の通らないものなら、おそらくオブジェクトは解放済みで、そのメモリが再利用されています（ゾンビ）。",
            checkNext: [
                "例外の reason にある受け手のクラスとセレクタを確認し、Zombies を有効にして再現してください"
            ]),
        "frameSymbol/libc++ assertion": KnowledgeText(
            title: "C++ 標準ライブラリのハードニング用アサーション",
            meaning:
                "ハードニングのチェック付きでビルドされた libc++ は、前提条件が成り立たないとトラップします（例: 'assertion __n < size() failed: vector[] index out of bounds'）。Swift と同じく、メッセージは人工的なインラインフレームの名前として残ります。",
            causes: [
                "コンテナの範囲外のインデックスやイテレータ",
                "メッセージにある、その他の破られた前提条件",
            ],
            checkNext: [
                "アサーションのフレームの下のフレームが、前提条件を破った呼び出しです"
            ]),
        "frameSymbol/__pthread_kill": KnowledgeText(
            title: "自分自身へのシグナル",
            meaning: "クラッシュしたスレッドの先頭の __pthread_kill／pthread_kill は、abort() が SIGABRT を発生させる仕組みです。注目すべきフレームはもっと下にあります。",
            checkNext: [
                "abort から下に、あなたのコードの最初のフレームまで読んでください"
            ]),
        "frameSymbol/malloc_zone_error": KnowledgeText(
            title: "malloc のヒープのチェックがプロセスを停止",
            meaning:
                "libmalloc は、メモリの確保と解放のときに自身のメタデータをチェックします。チェックに失敗すると（二重解放、自分が返していないポインタの解放、ヘッダやガードが上書きされたブロック）、malloc_zone_error／malloc_report で報告して中断します。チェックは不具合より後で実行されます。フレームが示すのは次にヒープに触れた箇所で、ヒープを壊した箇所ではありません。",
            causes: [
                "二重解放、または malloc が返していないポインタの解放",
                "ヒープの破壊: ヒープブロックの末尾を超えた書き込み、または解放済みのブロックへの書き込み",
            ],
            checkNext: [
                "Address Sanitizer で再現してください。不正な書き込みや解放そのもので止まります",
                "Guard Malloc と Malloc Scribble を有効にして、メモリ破壊が原因に近い場所で失敗するようにしてください",
            ]),
        "frameSymbol/demangling_terminate_handler": KnowledgeText(
            title: "C++ の terminate ハンドラ",
            meaning:
                "libc++abi のデフォルトの terminate ハンドラです。std::terminate が実行されました。何も捕捉しなかった例外（__cxa_throw がハンドラを見つけられなかった）、noexcept 関数から抜け出した例外（__clang_call_terminate）、または例外のない rethrow です。例外の型をコンソールに出力し、abort() を呼び出します。",
            causes: [
                "C++ の例外が投げられ、どのハンドラも捕捉しなかった"
            ],
            checkNext: [
                "throw を探してください。__cxa_throw を呼んだフレームが、例外を投げた呼び出しです"
            ]),
        "frameSymbol/__cxa_pure_virtual": KnowledgeText(
            title: "純粋仮想関数の呼び出し",
            meaning: "呼び出しが純粋仮想メソッドに届くと、libc++abi は 'Pure virtual function called!' と出力して中断します。オブジェクトはまだ構築中か、破棄中か、すでに解放されています。",
            causes: [
                "コンストラクタやデストラクタの中、または解放後のオブジェクトでの仮想関数の呼び出し"
            ],
            checkNext: [
                "Address Sanitizer で再現して、解放後の使用を捕まえてください"
            ]),
        "frameSymbol/NSAssertionHandler": KnowledgeText(
            title: "NSAssert の失敗",
            meaning:
                "NSAssert や NSCAssert の条件が偽のとき、-[NSAssertionHandler handleFailureInMethod:…]／handleFailureInFunction: が NSInternalInconsistencyException を投げます。その次のフレームが、アサーションが失敗したメソッドです。そのメソッドがシステムのフレームワークのものなら、フレームワークは、アプリが許されない使い方をしていることを見つけました。",
            checkNext: [
                "アサーションを出したメソッドのドキュメントで、チェックしているルールを読み、アプリからの呼び出しを確認してください"
            ]),
        "frameSymbol/_objc_fatal": KnowledgeText(
            title: "Objective-C ランタイムの致命的なエラー",
            meaning: "Objective-C ランタイムが、続行できない状態を見つけてプロセスを停止しました。理由は 'objc[pid]: …' としてコンソールに出力されます（例: 解放中のオブジェクトへの weak 参照の作成）。",
            checkNext: [
                "クラッシュした時点のコンソールログを読んでください。ランタイムはそこに理由を出力しています"
            ]),
    ]
}
