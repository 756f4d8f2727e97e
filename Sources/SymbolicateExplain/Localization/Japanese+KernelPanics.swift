// Japanese texts of the knowledge base's kernel panic families (KB+KernelPanics.swift), by entry
// ID: the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseKernelPanics: [String: KnowledgeText] = [
        "panicFamily/kernel panic: watchdog-timeout": KnowledgeText(
            title: "ウォッチドッグのタイムアウトによるパニック",
            meaning:
                "システムがウォッチドッグに応答しなくなりました。watchdogd（userspace watchdog timeout では WindowServer などのシステムサービス）が許された時間内にチェックインせず、カーネルはマシンを再起動するためにパニックしました。止まったサービスやスレッドを追ってください。",
            causes: [
                "システムサービスがドライバ、ディスク、GPU を待ったまま止まった（パニックがチェックインしなくなったサービスを示します）",
                "マシンが過負荷または停滞し（熱による制限、メモリのスラッシング）、ウォッチドッグが動けなかった",
            ],
            checkNext: [
                "パニックファイルで、チェックインしなくなったサービスと、そのスレッドが何を待っていたかを探してください",
                "macOS を更新し、他社製のカーネル拡張やシステム拡張を取り除いて、再発するか確かめてください",
                "再発する場合は、パニックファイルを添付して Feedback Assistant で Apple に報告してください",
            ]),
        "panicFamily/kernel panic: kernel-abort": KnowledgeText(
            title: "カーネルのデータアボート",
            meaning:
                "カーネルのコードが無効なアドレスを読み書きした、またはそこへ飛びました（データアボート、飛んだ場合は命令フェッチアボート）。カーネルかカーネル拡張の不具合、またはメモリの破損です。パニックのバックトレースとカーネル拡張の一覧が誰のコードかを示します。",
            causes: [
                "カーネルまたはカーネル拡張の不具合（解放後に使った、または設定されていないポインタ）",
                "パニックが毎回違うバックトレースで再発する場合は、メモリなどのハードウェアの故障",
            ],
            checkNext: [
                "パニックの Kernel Extensions in backtrace の一覧を読んでください。Apple 以外のものがあれば最初に疑ってください",
                "macOS を更新してください。違うバックトレースで再発する場合は Apple Diagnostics を実行してください",
                "パニックファイルを添付して Feedback Assistant で Apple に報告してください",
            ]),
        "panicFamily/kernel panic: zone-corruption": KnowledgeText(
            title: "カーネルのゾーンアロケータの検査",
            meaning:
                "カーネルのメモリアロケータ（zalloc）が自身のデータの誤りを見つけました。解放後に書き込まれた要素、本来のゾーンにないアドレス（zone_require）、またはカーネルのメモリリークによるゾーンマップの枯渇です。パニックが示すゾーンが、どの種類のカーネルオブジェクトかを示します。",
            causes: [
                "カーネルまたはカーネル拡張が、解放後のカーネルメモリに書き込んだ",
                "カーネルのメモリリークでゾーンマップが埋まった（zone map exhausted: パニックが増えたゾーンを示します）",
            ],
            checkNext: [
                "パニックが示すゾーンを控え、他社製のカーネル拡張を取り除いて再発するか確かめてください",
                "パニックファイルを添付して Feedback Assistant で Apple に報告してください",
            ]),
        "panicFamily/kernel panic: storage-controller": KnowledgeText(
            title: "ストレージコントローラのパニック",
            meaning:
                "パニックはストレージのスタックから来ています。SSD のコントローラ（ANS2、AppleANS…）、その NVMe ドライバ、または APFS です。コントローラのファームウェアかドライブが、カーネルが回復できない障害を報告しました。",
            causes: ["SSD かそのコントローラが故障しかけている、またはファームウェアの不具合", "APFS が扱えないファイルシステムの損傷"],
            checkNext: [
                "すぐにバックアップを取り、起動ディスクにディスクユーティリティの First Aid を実行してください",
                "Apple Diagnostics を実行し、macOS を更新してください（コントローラのファームウェアも更新されます）",
                "再発する場合は修理に出し、パニックファイルを添えて Apple に報告してください",
            ]),
        "panicFamily/kernel panic: gpu": KnowledgeText(
            title: "GPU のパニック",
            meaning:
                "GPU のドライバかファームウェア（Apple シリコンでは AGX）が、カーネルが回復できないエラーで止まりました。アプリがこれを起こせるのはドライバやファームウェアの不具合を通じてだけです。描画していたアプリは手がかりであって原因ではありません。",
            causes: ["いずれかのアプリのグラフィックスや計算の処理が当たった、GPU のドライバかファームウェアの不具合", "違うアプリで再発する場合は GPU のハードウェアの故障"],
            checkNext: [
                "macOS を更新してください（GPU のドライバとファームウェアが含まれます）",
                "どのアプリが描画していたか（パニック時のタスク）と、外部ディスプレイがつながっていたかを控えてください",
                "パニックファイルを添付して Feedback Assistant で Apple に報告してください",
            ]),
        "panicFamily/kernel panic: memory-tagging": KnowledgeText(
            title: "カーネルのメモリタグ付けの違反",
            meaning:
                "メモリタグ付け（MTE）が、タグの合わないポインタでメモリを使うカーネルのコードを捕まえました。カーネルかカーネル拡張での解放後使用または範囲外アクセスで、起きたその場で止められました。",
            causes: ["カーネルのコードまたはカーネル拡張での、解放後使用または範囲外アクセス"],
            checkNext: ["パニックファイルを添付して Feedback Assistant で Apple に報告してください。タグの検査がアクセスそのものを示しています"]),
        "panicFamily/kernel panic: secure-enclave": KnowledgeText(
            title: "Secure Enclave のパニック",
            meaning:
                "Secure Enclave 自身の OS（sepOS）がパニックし、メインのカーネルも一緒にパニックしました。'SEP Panic:' の後の語が止まった Secure Enclave のアプリを示します（sks はキーストアです）。",
            causes: ["Secure Enclave のファームウェアの不具合", "再発する場合はハードウェアの故障"],
            checkNext: [
                "OS を更新してください（Secure Enclave のファームウェアが含まれます）",
                "再発する場合は、パニックファイルを添付して Feedback Assistant で Apple に報告し、修理に出してください",
            ]),
        "panicFamily/kernel panic: power-management": KnowledgeText(
            title: "電源管理のタイムアウト",
            meaning:
                "ドライバが電源状態の変更を時間内に終えなかった（setPowerState timed out）、または電源管理ユニットが障害を報告しました。パニックは応答しなかったドライバを示します。",
            causes: ["示されたドライバ（多くはグラフィックス）が、スリープやスリープ解除でデバイスの電源状態が変わる間に止まった", "ドライバが待つデバイスや周辺機器の故障"],
            checkNext: [
                "macOS と、示されたドライバのメーカーのソフトウェアを更新し、周辺機器を外して再発するか確かめてください",
                "Apple Diagnostics を実行し、再発する場合はパニックファイルを添えて Apple に報告してください",
            ]),
        "panicFamily/kernel panic: x86-cpu-caterr": KnowledgeText(
            title: "Intel CPU の致命的エラー（bridgeOS）",
            meaning:
                "T2 チップの bridgeOS が、Intel CPU の致命的エラー（CATERR）の報告を受けて Mac を再起動しました。CPU はハードウェアの段階で止まったため、Intel 側のソフトウェアは自身のパニックを書いていません。",
            causes: ["ハードウェアの故障（CPU、電源供給、ロジックボード）またはファームウェアの不具合"],
            checkNext: [
                "macOS を更新し（ファームウェアも更新されます）、Apple Diagnostics を実行してください",
                "再発する場合は修理に出し、パニックファイルを添えて Apple に報告してください",
            ]),
        "panicFamily/kernel panic: third-party-kext": KnowledgeText(
            title: "他社製カーネル拡張でのパニック",
            meaning:
                "Apple のものではないカーネル拡張がパニックのバックトレースにあります。それが実行したカーネルのコード、またはそれが呼んだコードがシステムを止めました。最初に疑う対象です。",
            causes: ["示されたカーネル拡張の不具合、またはこの OS のバージョンと合わないこと"],
            checkNext: [
                "読み込まれている拡張のバージョン（kmutil showloaded、systemextensionsctl list）と、メーカーに新しいバージョンがあるかを確かめてください",
                "パニックファイルを添えて、拡張のメーカーに報告してください",
            ]),
        "panicFamily/kernel panic: other": KnowledgeText(
            title: "カーネルパニック",
            meaning: "既知のどの系統にも当たらないメッセージで、カーネルがシステムを止めました。パニック文字列がすべての説明です。",
            causes: ["OS の不具合、ドライバの不具合、またはハードウェアの故障"],
            checkNext: ["パニックファイルを添付して Feedback Assistant で Apple に報告してください"]),
    ]
}
