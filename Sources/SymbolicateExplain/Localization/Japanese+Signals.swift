// Japanese texts of the knowledge base's signals entries (KB+Signals.swift), by entry ID
// (`KnowledgeEntry.catalogID`): the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseSignals: [String: KnowledgeText] = [
        "signal/SIGHUP": KnowledgeText(
            title: "ハングアップ",
            meaning: "シグナル 1: 制御端末がなくなったか、デーモンが再読み込みを求められました。これだけではクラッシュではありません。"),
        "signal/SIGINT": KnowledgeText(
            title: "割り込み",
            meaning: "シグナル 2: キーボードからの割り込み（Control-C）です。クラッシュではありません。"),
        "signal/SIGQUIT": KnowledgeText(
            title: "別のプロセスによる終了",
            meaning: "シグナル 3: このプロセスに対する権限を持つ別のプロセスが、これを終了させました。クラッシュとは限りませんが、検出可能な問題のある動作の兆候です。コマンドラインツールは Control-\\ でもこれを受け取ります。",
            causes: [
                "iOS: 読み込みに時間がかかりすぎたキーボード拡張を、ホストアプリが終了させた"
            ],
            checkNext: [
                "ウォッチドッグによる終了と同じように調べてください。バックトレースは、遅いコードの後に実行された処理を示します"
            ]),
        "signal/SIGILL": KnowledgeText(
            title: "不正な命令",
            meaning: "シグナル 4: 不正な命令です。x86_64 では Swift ランタイムのトラップ（ud2）、ARM では本当に無効な命令です。EXC_BAD_INSTRUCTION と一緒に現れます。",
            causes: [
                "x86_64: Swift ランタイムのチェックの失敗、または fatalError",
                "ARM: 壊れた関数ポインタを通じたジャンプ、CPU の機能の不足",
            ],
            checkNext: [
                "EXC_BAD_INSTRUCTION を参照してください"
            ]),
        "signal/SIGTRAP": KnowledgeText(
            title: "トレーストラップ",
            meaning: "シグナル 5: トレース／ブレークポイントのトラップです。ARM では、Swift ランタイムエラー、fatalError、Dispatch の誤用はこの形でプログラムを止めます。EXC_BREAKPOINT と一緒に現れます。",
            causes: [
                "Swift ランタイムのチェックの失敗（nil のアンラップ、範囲外のインデックス、オーバーフロー、キャストの失敗）",
                "fatalError／precondition の呼び出し",
                "Dispatch API の誤用（BUG IN CLIENT OF LIBDISPATCH）",
            ],
            checkNext: [
                "EXC_BREAKPOINT を参照してください。Swift のメッセージか「Swift runtime failure」のフレームを読んでください"
            ]),
        "signal/SIGABRT": KnowledgeText(
            title: "中断（abort）",
            meaning:
                "シグナル 6: プロセスが中断しました。多くはプロセス自身が abort() を呼び出したためで、最もよくあるのは捕捉されなかった Objective-C や C++ の例外のデフォルトハンドラからです。assert()、スタックカナリア、malloc のチェックからも呼ばれます。権限のある別のプロセスが送ることもあります。",
            causes: [
                "捕捉されなかった Objective-C 例外（Last Exception Backtrace があります）",
                "捕捉されなかった C++ 例外（libc++abi のメッセージがあります）",
                "assert() の失敗、__stack_chk_fail、malloc の破壊チェック、os_crash",
                "システムコンポーネントによる構造化された中断（SIGNAL 以外の Termination Reason: TCC、DYLD、LIBSYSTEM など）",
            ],
            checkNext: [
                "Application Specific Information で例外の名前と理由を読んでください",
                "Last Exception Backtrace を上から、あなたのコードの最初のフレームまで読んでください",
                "例外のバックトレースがなければ、クラッシュしたスレッドで誰が abort を呼んだかを読んでください",
            ]),
        "signal/SIGEMT": KnowledgeText(
            title: "エミュレータのトラップ",
            meaning: "シグナル 7: エミュレータのトラップ（EXC_EMULATION）です。現在の Apple プラットフォームでは起きないはずです。"),
        "signal/SIGFPE": KnowledgeText(
            title: "算術演算の例外",
            meaning: "シグナル 8: ゼロ除算などの、浮動小数点や整数の算術演算の例外です（EXC_ARITHMETIC）。",
            causes: [
                "Intel 上の C 系のコードでの整数のゼロ除算"
            ],
            checkNext: [
                "EXC_ARITHMETIC を参照してください"
            ]),
        "signal/SIGKILL": KnowledgeText(
            title: "システムによる強制終了",
            meaning:
                "シグナル 9: オペレーティングシステムがプロセスを強制終了しました。多くはバックグラウンドやライフサイクルのルールに違反した（ウォッチドッグ、ロックしたファイル、バックグラウンドタスク）、デバイスのリソースが不足した、コード署名に失敗した、またはユーザが強制終了した場合です。Termination Reason のコードが理由を示します。バックトレースは、アイドル状態のランループを示すだけのことがよくあります。",
            causes: [
                "ウォッチドッグのタイムアウト（0x8badf00d）",
                "サスペンド中のファイルロックの保持（0xdead10cc）",
                "熱やリソースの逼迫",
                "コード署名の強制",
            ],
            checkNext: [
                "Termination Reason のネームスペースとコードを読み、その意味を調べてください",
                "クラッシュしたスレッドのバックトレースを原因だと思い込まないでください",
            ]),
        "signal/SIGBUS": KnowledgeText(
            title: "バスエラー",
            meaning:
                "シグナル 10: バスエラーです。アライメントの合わないアクセスや無効なアクセス、保護されたメモリへのアクセス、失敗したメモリマップファイル、ポインタ認証の失敗です。カーネルは、KERN_INVALID_ADDRESS 以外のすべての EXC_BAD_ACCESS のコードに SIGBUS を使います。",
            causes: [
                "SIGSEGV と同じ種類の問題: 不正なポインタやダングリングポインタ、保護違反",
                "メモリマップファイルのエラー（KERN_MEMORY_ERROR）",
                "アライメント例外",
            ],
            checkNext: [
                "サブタイプ（KERN_PROTECTION_FAILURE、KERN_MEMORY_ERROR、EXC_ARM_DA_ALIGN）を読み解いてください"
            ]),
        "signal/SIGSEGV": KnowledgeText(
            title: "セグメンテーション違反",
            meaning: "シグナル 11: セグメンテーション違反です。スレッドが無効なアドレスや範囲外のアドレスに触れました（KERN_INVALID_ADDRESS を伴う EXC_BAD_ACCESS、またはスタックオーバーフロー）。",
            causes: [
                "nil またはそれに近いポインタの参照外し",
                "解放後の使用／ダングリングポインタ、ゾンビオブジェクト",
                "unsafe なコードでの範囲外アクセス",
                "スタックオーバーフロー",
                "クラッシュした場所から離れたところでのヒープ破壊",
            ],
            checkNext: [
                "フォールトアドレスを読んでください",
                "EXC_BAD_ACCESS を参照してください",
            ]),
        "signal/SIGSYS": KnowledgeText(
            title: "不正なシステムコール",
            meaning:
                "シグナル 12: プロセスが存在しないシステムコールを呼び出しました（不正なシステムコール番号）。（未知ではなく）禁止されたシステムコールは、代わりに EXC_GUARD GUARD_TYPE_REJECTED_SC として現れます。",
            causes: [
                "間違った番号での生の syscall()",
                "新しい OS 向けにビルドされたバイナリ",
            ],
            checkNext: [
                "バックトレースで syscall() の呼び出し元を探してください"
            ]),
        "signal/SIGPIPE": KnowledgeText(
            title: "パイプの切断",
            meaning:
                "シグナル 13: 読み手のいなくなったパイプやソケットにプロセスが書き込みました。デフォルトの動作はプロセスの終了です。Apple の ReportCrash はこれについてレポートを書かないはずです（コアを生成するシグナルではありません）が、サードパーティのレポータは報告します。",
            causes: [
                "SIGPIPE を無視せずに、閉じたソケットやパイプへ書き込んだ"
            ],
            checkNext: [
                "signal(SIGPIPE, SIG_IGN) を使うか、ソケットに SO_NOSIGPIPE を設定し、EPIPE を処理してください"
            ]),
        "signal/SIGALRM": KnowledgeText(
            title: "アラームクロック",
            meaning: "シグナル 14: alarm() で設定したタイマが満了しましたが、処理するものがありませんでした。"),
        "signal/SIGTERM": KnowledgeText(
            title: "終了の要求",
            meaning:
                "シグナル 15: 穏やかな終了の要求です。プロセスが正常に終了できるよう、SIGKILL の少し前に送られることがよくあります。ターミナルの kill のデフォルトでもあります。JSON のレポートでは SIGTRM と綴られることがあります。",
            causes: [
                "launchd がデーモンやエージェントを停止した",
                "システムのシャットダウンやログアウト",
                "MDM やアップデートによる終了",
            ],
            checkNext: [
                "プロセスのライフサイクルを確認してください: 誰が停止させるか、プロセスがすぐに終了するか"
            ]),
        "signal/SIGUSR1": KnowledgeText(
            title: "ユーザ定義シグナル 1",
            meaning: "シグナル 30: アプリケーションが意味を決めます。処理するものがなければプロセスは終了します。"),
        "signal/SIGUSR2": KnowledgeText(
            title: "ユーザ定義シグナル 2",
            meaning: "シグナル 31: アプリケーションが意味を決めます。処理するものがなければプロセスは終了します。"),
        "exceptionNote/SIMULATED (this is NOT a crash)": KnowledgeText(
            title: "シミュレートされたクラッシュレポート",
            meaning: "プロセスはクラッシュしていません。レポートは意図的に生成されました（os_fault、シミュレートされたクラッシュ）。その後、OS がプロセスに終了を求めた可能性はあります。"),
        "exceptionNote/NON-FATAL CONDITION (this is NOT a crash)": KnowledgeText(
            title: "致命的ではない状態",
            meaning: "レポートは生成されましたが、プロセスは実行を続けました（EXC_RESOURCE の警告、GUARD_TYPE_USER のフォールト）。"),
        "guardType/GUARD_TYPE_MACH_PORT": KnowledgeText(
            title: "Mach ポートのガード",
            meaning: "EXC_GUARD の種類 1: Mach ポートの権利が誤って使われました（flavor が違反の種類を示します。INVALID_NAME、MOD_REFS／OVER_DEALLOC、DESTROY など）。",
            causes: [
                "ポートの権利の過剰な解放（mach_port_deallocate／mod_refs）",
                "ダングリングなポート名の使用",
                "他者のガードされた受信権の破棄",
                "ポートの周りのスレッドセーフティの不具合",
            ],
            checkNext: [
                "Exception Message で flavor とポート番号を読んでください",
                "クラッシュしたスレッドで mach_port_* の呼び出しを探してください",
            ]),
        "guardType/GUARD_TYPE_FD": KnowledgeText(
            title: "ファイルディスクリプタのガード",
            meaning:
                "EXC_GUARD の種類 2: システムライブラリ（SQLite／Core Data、libdispatch、XPC）が所有する、ガードされたファイルディスクリプタが、close された、dup された、close-on-exec を外された、ソケットで送られた、fileport にされた、または書き込まれました。",
            causes: [
                "すべてのディスクリプタを閉じた（fork の後や、「すべての fd を閉じる」ヘルパーなど）",
                "ラッパでの二重 close: 番号がガードされたディスクリプタに再利用されていた",
                "所有していないディスクリプタへの書き込み",
            ],
            checkNext: [
                "Exception Message を読んでください: 操作（CLOSE、DUP、WRITE など）とディスクリプタ番号",
                "クラッシュしたスレッドのバックトレースで、close／dup／write の呼び出し元を探してください",
            ]),
        "guardType/GUARD_TYPE_USER": KnowledgeText(
            title: "ユーザフォールトのガード",
            meaning: "EXC_GUARD の種類 3: ユーザ空間のコンポーネントがフォールトを報告しました（ネームスペースと理由コードはメッセージにあります）。致命的ではなく、ExcUserFault_<process> として報告されます。"),
        "guardType/GUARD_TYPE_VN": KnowledgeText(
            title: "vnode のガード",
            meaning: "EXC_GUARD の種類 4: ガードされたファイル（vnode）が、名前の変更、削除、書き込み、切り詰め、リンク、交換、または権限の変更をされました。"),
        "guardType/GUARD_TYPE_VIRT_MEMORY": KnowledgeText(
            title: "仮想メモリのガード",
            meaning: "EXC_GUARD の種類 5: 仮想メモリのガードが発火しました（隙間の解放、回収の失敗、セキュリティやメモリタグのフォールト）。"),
        "guardType/GUARD_TYPE_REJECTED_SC": KnowledgeText(
            title: "拒否されたシステムコール",
            meaning: "EXC_GUARD の種類 6: プロセスが、自身に禁止されたシステムコールや Mach トラップを呼び出しました（メッセージにトラップ名かシステムコール番号があります）。"),
        "resourceType/RESOURCE_TYPE_CPU": KnowledgeText(
            title: "CPU の使いすぎ",
            meaning:
                "EXC_RESOURCE CPU: スレッドが短い時間枠の中で許されたより多くの CPU を使いました。サブタイプ CPU は警告で、CPU_FATAL ではプロセスが強制終了されます。メッセージは「(Limit N%) Observed M% over S secs」となります。",
            causes: [
                "ビジーループやポーリングのタイマ",
                "後回しにするか抑えるべき重いバックグラウンド処理",
            ],
            checkNext: [
                "（サンプリングされた）レポートで、最も重いスレッドのスタックを読んでください",
                "Time Profiler でプロファイルしてください。MetricKit の MXCPUExceptionDiagnostic でも同じデータが得られます",
            ]),
        "resourceType/RESOURCE_TYPE_WAKEUPS": KnowledgeText(
            title: "ウェイクアップが多すぎる",
            meaning: "EXC_RESOURCE WAKEUPS: スレッドが頻繁に起きすぎて、バッテリーを消費しました。メッセージは「(Limit N/sec) Observed M/sec over S secs」となります。",
            causes: [
                "スレッド間のメッセージのやり取りが意図よりずっと多い（DispatchQueue.async、perform(_:on:with:waitUntilDone:)）",
                "高頻度のタイマ、ソケットのビジーポーリング",
            ],
            checkNext: [
                "ほぼ同じバックトレースを持つ複数のバックグラウンドスレッドが、多くの場合、原因の場所を示します"
            ]),
        "resourceType/RESOURCE_TYPE_MEMORY": KnowledgeText(
            title: "メモリの上限超過",
            meaning:
                "EXC_RESOURCE MEMORY: プロセスがメモリの上限を超えました（「(Limit N MB) Crossed High Water Mark」）。この後に終了させられることがありますが、強制終了自体は jetsam イベントです。「Crossed Threshold For Diagnostic Log Generation」というメッセージは診断のためだけのもので、上限の違反ではありません。",
            causes: [
                "画像を元の解像度のままデコードした",
                "上限のないキャッシュ、リーク",
                "App Extension の上限はアプリよりずっと低い（Apple は値を公開していません）",
            ],
            checkNext: [
                "メモリグラフデバッガと Instruments の Allocations を使ってください",
                "メモリ警告に対応し、拡張ではバッファを縮小してください",
            ]),
        "resourceType/RESOURCE_TYPE_IO": KnowledgeText(
            title: "ディスク書き込みが多すぎる",
            meaning: "EXC_RESOURCE IO: 短い期間に過剰なディスク書き込みがありました（「(Limit N MB) Observed M MB over S secs」）。",
            causes: [
                "ディスクへのログ出力",
                "データベースの書き込み増幅（トランザクションなし、頻繁なチェックポイント）",
                "変更のたびにファイルやキャッシュ全体を書き直している",
            ],
            checkNext: [
                "書き込みをまとめ、File Activity インストゥルメントでプロファイルしてください"
            ]),
        "resourceType/RESOURCE_TYPE_THREADS": KnowledgeText(
            title: "スレッドが多すぎる",
            meaning: "EXC_RESOURCE THREADS: プロセスがスレッド数の上限を超えました（「(Limit N threads) Crossed Thread Limit」）。",
            causes: [
                "多くのキューでブロックする処理による GCD のスレッドの急増",
                "上限のない Thread の生成",
            ],
            checkNext: [
                "並行性を制限してください（OperationQueue.maxConcurrentOperationCount、構造化された並行性）"
            ]),
        "resourceType/RESOURCE_TYPE_PORTS": KnowledgeText(
            title: "Mach ポートが多すぎる",
            meaning: "EXC_RESOURCE PORTS: プロセスがプロセスごとの Mach ポートの上限を超えました。ポートのリークです。",
            causes: [
                "無効化されていない XPC 接続",
                "解放されていない IOKit サービスのハンドル",
                "リークしたランループのソース",
            ],
            checkNext: [
                "すべての XPC／IOKit オブジェクトが解放されているか確認してください"
            ]),
    ]
}
