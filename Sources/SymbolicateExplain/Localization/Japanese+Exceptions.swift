// Japanese texts of the knowledge base's exceptions entries (KB+Exceptions.swift), by entry ID
// (`KnowledgeEntry.catalogID`): the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseExceptions: [String: KnowledgeText] = [
        "exceptionType/EXC_BAD_ACCESS": KnowledgeText(
            title: "不正なメモリアクセス",
            meaning: "スレッドが触れてはいけないメモリに触れました。マップされていないアドレス（SIGSEGV）、またはマップされていても保護属性がそのアクセスを許さないアドレス、アライメントの合わないアクセス、ポインタ認証の失敗（SIGBUS）です。",
            causes: [
                "nil またはそれに近いポインタの参照外し（アドレスはフィールドの小さなオフセットです）",
                "解放後の使用（use-after-free）やダングリングポインタ。過剰に解放された Objective-C オブジェクト（ゾンビ）も含みます",
                "unsafe な Swift、C、C++ のコードでの範囲外アクセス",
                "読み取り専用メモリへの書き込み、または実行できないメモリの実行",
                "壊れた関数ポインタ、vtable、isa を通じたジャンプ",
                "終わらない再帰によるスタックオーバーフロー",
            ],
            checkNext: [
                "Exception Subtype／Codes のフォールトアドレスを読んでください。0 や小さな値なら nil の参照外しです。上位ビットが立っていれば、ポインタ認証の失敗かメモリ破壊が疑われます",
                "pc とフォールトアドレスを比べてください。同じなら命令の読み込みの失敗です（呼び出し元は lr で分かります）。違うならデータアクセスの失敗です",
                "VM Region Info で、アドレスがどこにあるかを確認してください",
                "先頭のフレームが objc_msgSend／objc_retain／objc_release なら、ゾンビを疑い、Zombies を有効にして再現してください",
                "Address Sanitizer、Thread Sanitizer、Undefined Behavior Sanitizer、または Guard Malloc を使って再現してください",
            ]),
        "exceptionType/EXC_BAD_INSTRUCTION": KnowledgeText(
            title: "不正な命令／x86 のトラップ",
            meaning:
                "CPU が命令の実行を拒否しました。x86_64（Intel Mac、Intel 上の Catalyst、Intel ホスト上のシミュレータ）では、Swift ランタイムのトラップと fatalError はこの形（ud2）で現れます。EXC_BREAKPOINT とまったく同じように読んでください。ARM では、本当に未定義の命令を意味します。",
            causes: [
                "x86_64: Swift ランタイムのチェックが失敗しました（nil の強制アンラップ、範囲外のインデックス、オーバーフロー、as! の失敗、fatalError）",
                "ARM: 壊れた関数ポインタまたは壊れたコードページを通じて、データ領域へジャンプしました",
                "CPU にない命令（Rosetta 上や古い CPU での AVX など）",
            ],
            checkNext: [
                "x86_64: Swift のトラップとして扱ってください。Application Specific Information に Swift ランタイムのメッセージがないか確認し、フレーム 0 をシンボリケートしてください",
                "ARM: pc、pc にある命令のバイト列、pc が有効な __TEXT セクションの中にあるかを確認してください",
            ]),
        "exceptionType/EXC_ARITHMETIC": KnowledgeText(
            title: "算術演算の例外",
            meaning: "ゼロ除算、または CPU が発生させたその他の算術演算や浮動小数点演算の例外です（SIGFPE）。",
            causes: [
                "Intel 上の C、C++、Objective-C での整数のゼロ除算やゼロ剰余",
                "Intel 上での INT_MIN / -1",
                "マスクされていない浮動小数点例外",
            ],
            checkNext: [
                "クラッシュしたフレームで除算を探してください。Swift 自身の整数型は、代わりに SIGTRAP／SIGILL でトラップします",
                "Apple シリコンでは整数のゼロ除算で例外が起きないため、そこではまれです",
            ]),
        "exceptionType/EXC_EMULATION": KnowledgeText(
            title: "エミュレーション命令",
            meaning: "エミュレーション支援の命令が実行されました（SIGEMT に対応します）。現在の Apple プラットフォームでは起きないはずです。",
            checkNext: [
                "不正な命令として扱い、pc と命令のバイト列を確認してください"
            ]),
        "exceptionType/EXC_SOFTWARE": KnowledgeText(
            title: "ソフトウェアが発生させた例外",
            meaning:
                "ソフトウェアによる例外です。コード 0x10000〜0x1FFFF は Unix シグナルを表します: 0x10000 不正なシステムコール（SIGSYS）、0x10001 パイプの切断（SIGPIPE）、0x10002 abort（SIGABRT）、0x10003 ソフトシグナル（SIGKILL）。",
            checkNext: [
                "コードからシグナルを特定し、そのシグナルの項目を読んでください"
            ]),
        "exceptionType/EXC_BREAKPOINT": KnowledgeText(
            title: "トレーストラップ（意図的なクラッシュ）",
            meaning:
                "ブレークポイント／トレーストラップです（SIGTRAP）。ARM では、意図的なトラップはこの形で現れます。Swift ランタイムは回復できないエラーでこの方法でプログラムを止めます。Dispatch などのライブラリも致命的な誤用でトラップし、fatalError や __builtin_trap もこれを起こします。",
            causes: [
                "nil の強制アンラップ、または nil の暗黙的アンラップ Optional の使用",
                "as! キャストの失敗",
                "配列やコレクションの範囲外のインデックス",
                "整数のオーバーフロー、ゼロ除算、不正な数値変換",
                "エラーを投げた呼び出しへの try!、precondition、fatalError",
                "解放済みオブジェクトへの unowned 参照、排他アクセスの違反、Dictionary のキーの重複",
                "Dispatch API の誤用（BUG IN CLIENT OF LIBDISPATCH）",
            ],
            checkNext: [
                "Application Specific Information（libswiftCore）に Swift ランタイムのメッセージがあれば読んでください",
                "フレーム 0 をシンボリケートしてください。最適化ビルドでは、「Swift runtime failure: <reason>」という名前のインライン展開されたフレームが、dSYM を使ったときにだけ見えることがよくあります",
                "フレーム 0／1 から、失敗したチェックのファイルと行が分かります",
            ]),
        "exceptionType/EXC_SYSCALL": KnowledgeText(
            title: "システムコールの例外",
            meaning: "Unix のシステムコールが Mach 例外を発生させました。通常のアプリのクラッシュでは見られません。"),
        "exceptionType/EXC_MACH_SYSCALL": KnowledgeText(
            title: "Mach システムコールの例外",
            meaning: "Mach のシステムコールが例外を発生させました。通常のアプリのクラッシュでは見られません。"),
        "exceptionType/EXC_RPC_ALERT": KnowledgeText(
            title: "RPC アラート",
            meaning: "RPC アラートの例外です。通常のアプリのクラッシュでは見られません。"),
        "exceptionType/EXC_CRASH": KnowledgeText(
            title: "異常終了",
            meaning:
                "プロセスが異常終了しました。括弧内のシグナルが終了の仕方を示します: SIGABRT（abort。多くは捕捉されなかった例外）、SIGKILL（システムによる強制終了。Termination Reason を読んでください）、SIGQUIT、SIGTERM、SIGSYS。",
            causes: [
                "捕捉されなかった Objective-C または C++ の例外の後の abort()",
                "明示的な abort()、assert() の失敗、またはライブラリによるメモリ破壊の検出",
                "システムによる強制終了（ウォッチドッグ、バックグラウンドのポリシー、コード署名、ライブラリの欠落）",
            ],
            checkNext: [
                "まずシグナルと Termination Reason を読んでください",
                "Application Specific Information と Last Exception Backtrace があれば読んでください",
            ]),
        "exceptionType/EXC_RESOURCE": KnowledgeText(
            title: "リソースの上限超過",
            meaning:
                "プロセスがリソースの上限を超えました: CPU、ウェイクアップ、メモリ、ディスク書き込み（IO）、スレッド、Mach ポート。ほとんどの種類は警告（NON-FATAL CONDITION）ですが、CPU_FATAL と一部のメモリ上限ではプロセスが強制終了されます。サブタイプがリソースを、メッセージが上限と実測値を示します。",
            causes: [
                "ビジーループ、ポーリングのタイマ、重いバックグラウンド処理（CPU）",
                "スレッドが互いを頻繁に起こしすぎている（WAKEUPS）",
                "プロセスごとの上限を超えるメモリの増加。特に App Extension で起きます（MEMORY）",
                "過剰なディスク書き込み（IO）、スレッドの急増（THREADS）、Mach ポートのリーク（PORTS）",
            ],
            checkNext: [
                "Exception Subtype と Exception Message で、リソース、上限、実測値を確認してください",
                "レポートにある最も重いスタックを使い、Instruments または MetricKit の診断情報でプロファイルしてください",
            ]),
        "exceptionType/EXC_GUARD": KnowledgeText(
            title: "ガードされたリソースの誤用",
            meaning:
                "ガードされたシステムリソースが誤って使われました。サブタイプがガードの種類を示します。多くはシステムライブラリが所有するファイルディスクリプタ（GUARD_TYPE_FD）か、Mach ポートの権利（GUARD_TYPE_MACH_PORT）です。Exception Message が、どのディスクリプタ／ポートへのどの操作かを示します。",
            causes: [
                "SQLite／Core Data、libdispatch、XPC が所有するファイルディスクリプタを close、dup、または書き込みした",
                "すべてのディスクリプタを閉じるコード（fork の後など）、またはラッパでの二重 close",
                "Mach ポートの権利の管理の誤り: 過剰な解放、ダングリングな名前、ガードされた受信権の破棄",
            ],
            checkNext: [
                "Exception Message を読んでください: 操作、ディスクリプタ番号またはポート番号、ガードの値",
                "クラッシュしたスレッドのバックトレースで close／dup／write／mach_port の呼び出しと、その呼び出し元を探してください",
            ]),
        "exceptionType/EXC_CORPSE_NOTIFY": KnowledgeText(
            title: "コープスの通知",
            meaning:
                "レポートを書けるように、プロセスがコープス（corpse）として終了しました。Exception Note にある場合は、クラッシュがハードウェアのトラップから来たのではないことを意味します。OS がプロセスを明示的に終了させたか、プロセスが abort() を呼び出しました。",
            checkNext: [
                "実際の原因は、Exception Type、シグナル、Termination Reason で確認してください"
            ]),
        "exceptionCode/EXC_UNIX_BAD_SYSCALL": KnowledgeText(
            title: "不正なシステムコール（EXC_SOFTWARE）",
            meaning: "EXC_SOFTWARE のコード 0x10000: 存在しないシステムコールです。SIGSYS として届きます。"),
        "exceptionCode/EXC_UNIX_BAD_PIPE": KnowledgeText(
            title: "パイプの切断（EXC_SOFTWARE）",
            meaning: "EXC_SOFTWARE のコード 0x10001: 読み手のいないパイプやソケットへの書き込みです。SIGPIPE として届きます。"),
        "exceptionCode/EXC_UNIX_ABORT": KnowledgeText(
            title: "abort による中断（EXC_SOFTWARE）",
            meaning: "EXC_SOFTWARE のコード 0x10002: abort() です。SIGABRT として届きます。"),
        "exceptionCode/EXC_SOFT_SIGNAL": KnowledgeText(
            title: "ソフトシグナル（EXC_SOFTWARE）",
            meaning: "EXC_SOFTWARE のコード 0x10003: ソフトシグナルで、SIGKILL に対応します。"),
        "exceptionCode/KERN_INVALID_ADDRESS": KnowledgeText(
            title: "マップされていないアドレス",
            meaning: "EXC_BAD_ACCESS のコード 1: アドレスがまったくマップされていません。データアクセスでも命令の読み込みでも起きます。「at」の後の数値が不正なアドレスです。",
            causes: [
                "アドレス 0 または数 KB: nil の参照外しで、小さな数値はフィールドのオフセットです",
                "その他のアドレス: 解放後の使用、ダングリングポインタや不正なポインタ、不正な関数ポインタ",
            ],
            checkNext: [
                "pc はアドレスと同じですか？ 同じなら、不正な関数ポインタや壊れた vtable／isa を通じた命令の読み込みです。違うなら、不正なデータポインタです",
                "nil に近いアドレスでは、VM Region Info に「is not in any region」とあります",
            ]),
        "exceptionCode/KERN_PROTECTION_FAILURE": KnowledgeText(
            title: "保護されたメモリ",
            meaning:
                "EXC_BAD_ACCESS のコード 2: アドレスはマップされていますが、保護属性がそのアクセスを許しません。読み取り専用メモリへの書き込み、実行できないメモリの実行、ガード領域へのアクセスです。スタックのガード領域での保護違反は、スタックオーバーフローです。",
            causes: [
                "定数や読み取り専用のマッピングへの書き込み",
                "データの実行（壊れた関数ポインタ）",
                "スレッドのスタックの末尾を超えた（STACK GUARD 領域）",
            ],
            checkNext: [
                "VM Region Info では、該当する領域に ---> が付いています。PRT の列から、どの権限が足りなかったかが分かります",
                "STACK GUARD 領域ならスタックオーバーフローです。繰り返すフレームを探してください",
            ]),
        "exceptionCode/KERN_NO_ACCESS": KnowledgeText(
            title: "アクセス不可",
            meaning: "EXC_BAD_ACCESS のコード 8: そのメモリにはまったくアクセスできません。",
            checkNext: [
                "KERN_PROTECTION_FAILURE と同じように、フォールトアドレスと VM Region Info を読んでください"
            ]),
        "exceptionCode/KERN_MEMORY_FAILURE": KnowledgeText(
            title: "メモリの障害",
            meaning: "EXC_BAD_ACCESS のコード 9: メモリオブジェクトがページを用意できませんでした。",
            checkNext: [
                "メモリマップされたファイルと Kernel Triage の行を確認してください"
            ]),
        "exceptionCode/KERN_MEMORY_ERROR": KnowledgeText(
            title: "メモリをページインできない",
            meaning: "EXC_BAD_ACCESS のコード 10: その時点でメモリがデータを用意できませんでした。たとえば、メモリマップされたファイルが使えなくなった場合です。現在のレポートでは「FS pagein error」が付くことがあります。",
            causes: [
                "メモリマップ中のファイルが切り詰められた、または削除された",
                "ファイルが取り外し可能なボリュームやネットワークボリューム上にあり、それがなくなった",
                "デバイスのロック中に、データ保護によってファイルが読めなくなった",
            ],
            checkNext: [
                "バックトレースで mmap や Data(contentsOf:options: .alwaysMapped) を使っている箇所を探してください",
                "Kernel Triage の行（「cluster_pagein past EOF」など）を読んでください",
            ]),
        "exceptionCode/KERN_CODESIGN_ERROR": KnowledgeText(
            title: "コード署名がページを拒否",
            meaning: "EXC_BAD_ACCESS のコード 0x32（50）: コード署名の検証に失敗したため、カーネルがページを拒否しました（レポートにはよく「Code Signature Invalid」とあります）。",
            causes: [
                "署名の後にバイナリが変更された（strip、install_name_tool、実行中の上書き）",
                "JIT の entitlement なしに実行可能メモリへ書き込んだ",
                "Hardened Runtime の下で、プラグインがライブラリ検証に失敗した",
            ],
            checkNext: [
                "アプリに codesign --verify --deep --strict を実行してください",
                "実行中にビルドがバイナリを置き換えなかったか確認してください",
            ]),
        "exceptionCode/EXC_ARM_DA_ALIGN": KnowledgeText(
            title: "アライメントの合わないデータアクセス",
            meaning:
                "ARM の EXC_BAD_ACCESS のコード 0x101: アライメント例外です。64 ビット ARM は通常のロードのアライメント違反を許すため、まれです。アドレスのアライメントが合わず、しかもマップされていない場合に現れるので、多くは同じメモリの不具合を別の角度から見たものです。",
            causes: [
                "パックされた構造体",
                "奇数のオフセットでの UnsafeRawPointer.load(as:)",
                "アライメントの合わないアドレスへのアトミックロードや排他ロード",
                "不正なポインタ",
            ],
            checkNext: [
                "フォールトアドレスのアライメントと、ポインタがどこから来たかを確認してください"
            ]),
        "exceptionCode/EXC_ARM_DA_DEBUG": KnowledgeText(
            title: "ウォッチポイントの例外",
            meaning: "ARM の EXC_BAD_ACCESS のコード 0x102: デバッグ用のウォッチポイントが発火しました。"),
        "exceptionCode/EXC_ARM_SP_ALIGN": KnowledgeText(
            title: "スタックポインタのアライメント違反",
            meaning: "ARM の EXC_BAD_ACCESS のコード 0x103: スタックポインタのアライメントが合っていませんでした。多くはスタックの破壊か、手書きのアセンブリです。"),
        "exceptionCode/EXC_ARM_SWP": KnowledgeText(
            title: "SWP 命令",
            meaning: "ARM の EXC_BAD_ACCESS のコード 0x104: 廃止された SWP 命令で例外が起きました。"),
        "exceptionCode/EXC_ARM_PAC_FAIL": KnowledgeText(
            title: "ポインタ認証の失敗（FPAC）",
            meaning: "ARM の EXC_BAD_ACCESS のコード 0x105: 署名付きポインタの認証に失敗したことを、CPU 自身が報告しました（arm64e、FPAC ハードウェア）。",
            causes: [
                "署名付きポインタを上書きした、解放後の使用やバッファオーバーフロー",
                "バイナリ間でのポインタ署名の不一致",
            ],
            checkNext: [
                "メモリ破壊として扱ってください。Address Sanitizer を使い、ポインタがどこから来たかを確認してください"
            ]),
        "exceptionCode/EXC_ARM_UNDEFINED": KnowledgeText(
            title: "未定義の命令（ARM）",
            meaning: "ARM での EXC_BAD_INSTRUCTION のコード 1: CPU が未定義の命令に出会いました。",
            checkNext: [
                "pc、命令のバイト列、pc が有効なコードの中にあるかを確認してください"
            ]),
        "exceptionCode/EXC_I386_GPFLT": KnowledgeText(
            title: "一般保護例外（x86）",
            meaning: "x86 の一般保護例外で、EXC_BAD_ACCESS として報告されます。Intel では多くの場合、非正規形の（不正な）ポインタが原因で、フォールトアドレスは報告されません。",
            causes: [
                "不正な、または壊れたポインタ（非正規形のアドレス）",
                "解放後の使用",
            ],
            checkNext: [
                "レジスタで参照外しされたポインタを調べ、Address Sanitizer で再現してください"
            ]),
        "exceptionCode/EXC_I386_DIV": KnowledgeText(
            title: "整数の除算エラー（x86）",
            meaning: "Intel での EXC_ARITHMETIC のコード: C 系のコードでの整数のゼロ除算（または INT_MIN / -1）です。",
            checkNext: [
                "クラッシュしたフレームで / や % を探し、除数をチェックしてください"
            ]),
        "exceptionCode/EXC_I386_INTO": KnowledgeText(
            title: "オーバーフローのトラップ（x86）",
            meaning: "Intel での EXC_ARITHMETIC のコード: INTO によるオーバーフローのトラップが発生しました。"),
        "exceptionCode/EXC_I386_SSEEXTERR": KnowledgeText(
            title: "SSE の浮動小数点例外（x86）",
            meaning: "Intel での EXC_ARITHMETIC のコード: マスクされていない SSE の浮動小数点例外です。",
            checkNext: [
                "コードやライブラリが設定した浮動小数点例外のマスクを確認してください"
            ]),
        "exceptionCode/EXC_ARM_FP": KnowledgeText(
            title: "浮動小数点例外（ARM）",
            meaning: "ARM での EXC_ARITHMETIC のコード EXC_ARM_FP_*（0〜6）: トラップされた浮動小数点例外です（未定義、無効な演算、ゼロ除算、オーバーフロー、アンダーフロー、不正確な結果、非正規化数の入力）。"),
        "exceptionCode/EXC_ARM_MTE_TAGCHECK_FAIL": KnowledgeText(
            title: "メモリタグのチェックに失敗",
            meaning: "Memory Tagging Extension: ポインタのタグがメモリのタグと一致しませんでした。ハードウェアが検出した、解放後の使用や範囲外アクセスです。数値は検証されていません。",
            checkNext: [
                "解放後の使用／バッファオーバーフローとして扱い、Address Sanitizer で再現してください"
            ]),
        "exceptionCode/EXC_ARM_MTE_CANONICAL_FAIL": KnowledgeText(
            title: "メモリタグの正規形チェックに失敗",
            meaning: "Memory Tagging Extension: 正規形でないタグを持つポインタが使われました。数値は検証されていません。"),
        "signalCode/SEGV_MAPERR": KnowledgeText(
            title: "マップされていないアドレス（シグナルコード）",
            meaning: "SIGSEGV の si_code: アドレスがマップされていません。KERN_INVALID_ADDRESS に相当する、シグナルだけの表現です（macOS とサードパーティのレポータ）。",
            checkNext: [
                "KERN_INVALID_ADDRESS と同じように、「at」の後のアドレスを読んでください"
            ]),
        "signalCode/SEGV_ACCERR": KnowledgeText(
            title: "権限の不足（シグナルコード）",
            meaning: "SIGSEGV の si_code: アドレスはマップされていますが、そのアクセスは許されていません。KERN_PROTECTION_FAILURE に相当します。"),
        "signalCode/ILL_NOOP": KnowledgeText(
            title: "詳細なし（SIGILL のシグナルコード 0）",
            meaning:
                "SIGILL の si_code 0 で、Darwin だけの値です。特定の原因を表しません。シグナルコードを出力するレポータは、命令のアドレスと並べてこれを表示します。何が起きたかはシグナル自体（SIGILL、EXC_BAD_INSTRUCTION）が示します。",
            checkNext: [
                "例外の種類とクラッシュしたスレッドの先頭フレームを読んでください。x86_64 のトラップは実行時チェックの失敗です"
            ]),
        "signalCode/BUS_ADRALN": KnowledgeText(
            title: "アライメントの合わないアドレス（シグナルコード）",
            meaning: "SIGBUS の si_code: アライメントの合わないメモリアクセスです。",
            causes: [
                "パックされた、またはアライメントの合わない構造体を、幅の広いロードで読んだ",
                "不正なポインタ",
            ]),
        "signalCode/BUS_ADRERR": KnowledgeText(
            title: "存在しない物理アドレス（シグナルコード）",
            meaning: "SIGBUS の si_code: アドレスが物理的に存在しません。たとえば、切り詰められたメモリマップファイルです。"),
        "signalCode/BUS_OBJERR": KnowledgeText(
            title: "オブジェクト固有のハードウェアエラー（シグナルコード）",
            meaning: "SIGBUS の si_code: オブジェクト固有のハードウェアエラーです。"),
        "faultPattern/NULL_POINTER_DEREFERENCE": KnowledgeText(
            title: "nil／NULL の参照外し",
            meaning:
                "フォールトアドレスが 0、またはメモリの先頭の数ページ以内にあります。この範囲は決してマップされません。アドレス 0 は nil ポインタそのものが使われたことを意味します。0 でない小さなアドレスは、多くの場合、nil のオブジェクトを通じて読んだフィールドやメソッドテーブルのエントリのオフセットです。",
            causes: [
                "nil のオブジェクトまたは構造体ポインタのメンバの読み出し",
                "nil の関数ポインタやブロックを通じた呼び出し",
                "初期化されていない unsafe ポインタ",
            ],
            checkNext: [
                "クラッシュしたフレームで、どのポインタが nil になり得るかを探してください",
                "オフセット（アドレス）から、どのメンバを読んだかの手がかりが得られます",
            ]),
        "faultPattern/POINTER_AUTHENTICATION_FAILURE": KnowledgeText(
            title: "ポインタ認証の失敗（arm64e）",
            meaning:
                "サブタイプは「KERN_INVALID_ADDRESS at 0xA -> 0xB (possible pointer authentication failure)」となります。最初のアドレスは PAC ビットを含み、2 つ目は上位ビットを除いたアドレスです。署名付きポインタ（戻りアドレス、関数ポインタ、vtable、isa）の認証に失敗したか、メモリ破壊によって上位ビットにごみが残りました。Apple は、この 2 つは見分けがつきにくいと注意しています。",
            causes: [
                "ポインタを上書きした、解放後の使用やバッファオーバーフロー",
                "バイナリ間でのポインタ署名の不一致（arm64e のスライス）",
            ],
            checkNext: [
                "上位ビットを除いたアドレス（-> の後）を、ほかの不正なアドレスと同じように確認してください",
                "Address Sanitizer で再現してください。Apple の「Preparing your app to work with pointer authentication」も参照してください",
            ]),
        "faultPattern/STACK_OVERFLOW": KnowledgeText(
            title: "スタックオーバーフロー",
            meaning:
                "スレッドがスタックの末尾を超えてガード領域に入りました。カーネルはこの保護違反を SIGSEGV にします。現在のレポートには「Thread stack size exceeded due to excessive recursion」とあり、VM Region Info に STACK GUARD 領域が示されます。",
            causes: [
                "終わらない再帰（同じフレームの繰り返し）",
                "スタック上の非常に大きな確保（大きな構造体や配列、深い SwiftUI のビュービルダ）",
                "小さなスタックで作られた補助スレッド",
            ],
            checkNext: [
                "クラッシュしたスレッドで、繰り返すフレームの周期を探してください",
                "大きな値はヒープに移し、再帰は反復に書き換えてください",
            ]),
        "faultPattern/0xbad0": KnowledgeText(
            title: "Objective-C のプロパティへの同時アクセス",
            meaning:
                "末尾が bad0 のアドレス（0x…000bad0。「possible pointer authentication failure」が付くことが多い）での EXC_BAD_ACCESS です。あるスレッドが strong プロパティに書き込んでいる間に、別のスレッドがそれを読み書きすると、Objective-C ランタイムは意図的にクラッシュさせます。",
            causes: [
                "複数のスレッドから、nonatomic の strong プロパティへ同期なしにアクセスした"
            ],
            checkNext: [
                "プロパティへのアクセスを直列化するか、atomic にしてください",
                "Thread Sanitizer で確認してください",
            ]),
        "faultPattern/MAIN_THREAD_ONLY": KnowledgeText(
            title: "メインスレッド以外からの UI の呼び出し",
            meaning:
                "UIKit と AppKit のビュー、ウインドウ、アプリケーションオブジェクトは、メインスレッドからしか使えません。別のスレッドから呼び出すと、フレームワークの中でクラッシュしたり、そのアサーションに引っかかったり、メインキューやメインアクタのチェックに失敗したりします。Xcode の Main Thread Checker は、アプリの実行中にこのような呼び出しを報告します。",
            causes: [
                "バックグラウンドのスレッドやキューから呼ばれた UI のメソッド（ネットワークや完了のコールバック、バックグラウンドタスク）"
            ],
            checkNext: [
                "UI の呼び出しをメインスレッドに移してください（DispatchQueue.main.async、または @MainActor の関数）",
                "Main Thread Checker（スキーム › Diagnostics）を有効にして実行し、そのような呼び出しをすべて見つけてください",
            ]),
    ]
}
