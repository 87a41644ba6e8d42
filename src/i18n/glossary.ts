/**
 * The lab's reliability glossary, taken from the project's three source documents
 * (`../shared/seeds/`): the lesson in Spanish (`lesson-mcp-reliability.es.txt`, machine-translated,
 * with one garbled paragraph — its terms are kept as it uses them, odd ones included), the article
 * in Arabic (`article-circuit-breakers-retries.ar.txt`) and the postmortem in Chinese
 * (`postmortem-retry-storm.zh.txt`).
 *
 * For each concept: the English term, and for each language the term that language's document
 * itself uses, with the document's own sentence where it states the rule (quoted exactly: a unit
 * test checks each `sentence` and `near` really appear in the seed). A document that does not name
 * a concept has no entry for it; `lab` then holds the term the lab's catalogues use, marked as the
 * lab's own choice rather than a quotation. Pure data: no imports, no functions.
 *
 * Protocol tokens ({@link PROTOCOL_TOKENS}) are never translated, in any language.
 */

/** A seed file under `../shared/seeds/`. */
export type SeedFile = 'lesson-mcp-reliability.es.txt' | 'article-circuit-breakers-retries.ar.txt' | 'postmortem-retry-storm.zh.txt';

/** A language of the lab other than English. */
export type GlossaryLang = 'es' | 'ar' | 'zh';

/** Which seed is each language's source document. */
export const SEED_OF: Record<GlossaryLang, SeedFile> = {
  es: 'lesson-mcp-reliability.es.txt',
  ar: 'article-circuit-breakers-retries.ar.txt',
  zh: 'postmortem-retry-storm.zh.txt',
};

/** How one document names a concept, with its own sentence stating the rule. */
export interface TermUse {
  /** The term as the document writes it. */
  term: string;
  /** The document's sentence (exact substring of the seed) where the rule is stated. */
  sentence: string;
  /** A locating phrase (exact substring of the seed: a heading or nearby words) to find the sentence. */
  near: string;
  /** Remarks: a garbled or unusual rendering, a near-synonym, what the sentence really says. */
  note?: string;
}

/** One concept of the glossary. */
export interface GlossaryEntry {
  /** Stable id (used by tests and, later, by catalogues' translator notes). */
  id: string;
  /** The English term (the lab's source language). */
  en: string;
  /** What each document calls it; a missing language means its document does not name the concept. */
  docs: Partial<Record<GlossaryLang, TermUse>>;
  /**
   * The term the lab's catalogues use where a document is silent (or its term is unusable, e.g.
   * garbled): the lab's own choice, not a quotation.
   */
  lab?: Partial<Record<GlossaryLang, string>>;
}


/** The glossary, one entry per concept. */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'timeout',
    en: 'timeout',
    docs: {
      es: { term: 'tiempo límite', sentence: 'El cliente alcanza su tiempo límite y se desconecta.', near: 'El problema' },
      ar: { term: 'المهلة الزمنية', sentence: 'على عكس استدعاءات الدوال المحلية، يمكن أن تعاني خوادم MCP عن بُعد من تأخير الشبكة، وانتهاء المهلة الزمنية، واستنفاد الموارد.', near: 'لماذا يُعد الصمود مهماً في MCP' },
      zh: { term: '超时', sentence: '所有请求统一10秒超时,无视不同模型的实际响应特征。', near: '超时阈值静态固化', note: 'The rule the postmortem draws: one static timeout for every request was its first flaw.' },
    },
  },
  {
    id: 'idle-timeout',
    en: 'idle timeout',
    docs: {
      es: { term: 'tiempo de inactividad', sentence: 'El progreso puede restablecer el tiempo de inactividad pero nunca el tiempo máximo.', near: 'Verifique el hecho', note: 'The lesson also keeps the English "Idle timeout." in its two-clocks list.' },
      zh: { term: '分块超时', sentence: '流式响应需设置分块超时(每100ms校验)', near: '超时设计原则', note: 'A per-chunk timeout on a stream: the nearest the postmortem comes to an idle timeout.' },
    },
    lab: { ar: 'مهلة الخمول' },
  },
  {
    id: 'maximum-timeout',
    en: 'maximum timeout',
    docs: {
      es: { term: 'plazo máximo', sentence: 'A 2000 ms, el plazo máximo lo anula incluso si otro suceso de progreso llega a 1999 ms.', near: 'Las horas de espera necesitan dos relojes', note: 'Also "tiempo máximo" in the checklist.' },
      zh: { term: '绝对上限', sentence: '绝对上限 ≤ 30秒(用户体验红线)', near: '超时设计原则' },
    },
    lab: { ar: 'المهلة القصوى' },
  },
  {
    id: 'cancellation',
    en: 'cancellation',
    docs: {
      es: { term: 'cancelación', sentence: 'El cliente cancela cerrando el flujo de respuesta de esa solicitud.', near: 'HTTP en transmisión', note: 'Streamable HTTP: cancelling is closing the response stream.' },
      zh: { term: '取消', sentence: '错误处理简单粗暴:未区分用户主动取消与系统超时。', near: '这个看似完美的实现隐藏着三个致命缺陷' },
    },
    lab: { ar: 'الإلغاء' },
  },
  {
    id: 'idempotency-key',
    en: 'idempotency key',
    docs: {
      es: { term: 'clave de idempotencia', sentence: 'La misma clave y los mismos argumentos devuelven el resultado almacenado. La misma clave con argumentos diferentes se rechaza.', near: 'Un nuevo ID JSON-RPC no es idempotencia', note: 'The machine translation also writes "clave de impotencia" and "clave de idempotency"; the lab uses "clave de idempotencia".' },
      zh: { term: '请求DNA指纹', sentence: '在网关层增加请求DNA指纹(防止重复提交)', near: '关键改进包括', note: 'A request fingerprint against duplicate submission: the postmortem\'s idempotency device.' },
    },
    lab: { ar: 'مفتاح عدم التكرار', zh: '幂等键' },
  },
  {
    id: 'retry',
    en: 'retry',
    docs: {
      es: { term: 'nuevo intento', sentence: 'El nuevo intento automático se desactiva cuando el cliente no proporciona una llave.', near: 'Laboratorio de práctica', note: 'Also "volver a intentar" and, garbled, "retraso"/"retoma".' },
      ar: { term: 'إعادة المحاولة', sentence: 'من الحاسم التمييز بين الأخطاء القابلة لإعادة المحاولة (انتهاء مهلة الشبكة، رموز الحالة 503) والأخطاء غير القابلة لإعادة المحاولة (400 طلب غير صالح، أخطاء الصياغة).', near: 'تنفيذ منطق إعادة المحاولة مع التراجع الأسي' },
      zh: { term: '重试', sentence: '最大重试次数 ≤ 2(重要业务≤3)', near: '重试军规' },
    },
  },
  {
    id: 'retry-budget',
    en: 'retry budget',
    docs: {
      ar: { term: 'ميزانية', sentence: 'بدون آليات وقائية، يمكن أن يستهلك خادم معطل ميزانية المهلة الزمنية الكاملة للعميل، مما يؤدي إلى تأخيرات يواجهها المستخدم أو حالات توقف (Deadlocks).', near: 'لماذا يُعد الصمود مهماً في MCP', note: 'A timeout budget, not a retry budget: only the word "budget" is borrowed.' },
      zh: { term: '配额', sentence: '重试条件缺失:没有检查上游服务的健康状态,导致在OpenAI限流期间仍持续重试,造成配额雪崩。', near: '重试条件缺失', note: 'Quota: retries spent the API quota; the fix caps a retry\'s cost at a tenth of the remaining quota.' },
    },
    lab: { es: 'presupuesto de reintentos', ar: 'ميزانية إعادة المحاولة', zh: '重试预算' },
  },
  {
    id: 'exponential-backoff',
    en: 'exponential backoff',
    docs: {
      es: { term: 'retroceso exponencial', sentence: 'Los retemplazos de dispersión con retroceso exponencial determinista y nerviosismo.', near: 'Ajudantes de recuperación', note: 'Garbled sentence; the term itself is sound.' },
      ar: { term: 'التراجع الأسي', sentence: 'تزيد هذه الاستراتيجية من وقت الانتظار بين المحاولات بشكل أسي، مما يقلل الحمل على الخادم مع السماح للمشاكل العابرة بالحل.', near: 'تنفيذ منطق إعادة المحاولة مع التراجع الأسي' },
      zh: { term: '指数退避', sentence: '为了应对API抖动,我基于官方文档实现了经典的指数退避重试:', near: '初始设计的傲慢与偏见' },
    },
  },
  {
    id: 'circuit-breaker',
    en: 'circuit breaker',
    docs: {
      ar: { term: 'مفتاح الدائرة', sentence: 'إنه يراقب صحة الاتصال و"يفتح" الدائرة، مما يمنع المزيد من الطلبات لفترة محددة.', near: 'نمط مفتاح الدائرة (Circuit Breaker)' },
      zh: { term: '熔断', sentence: '15分钟后,错误率突破熔断阈值,系统进入保护状态', near: '雪崩形成' },
    },
    lab: { es: 'disyuntor' },
  },
  {
    id: 'half-open',
    en: 'half-open',
    docs: {
      ar: { term: 'نصف مفتوح', sentence: 'نصف مفتوح: بعد انتهاء المهلة، يُسمح بعدد محدود من طلبات الاختبار. إذا نجحت، تُغلق الدائرة؛ وإلا، تُفتح مرة أخرى.', near: 'يتميز مفتاح الدائرة النموذجي بثلاث حالات' },
    },
    lab: { es: 'semiabierto', zh: '半开' },
  },
  {
    id: 'jitter',
    en: 'jitter',
    docs: {
      es: { term: 'jitter', sentence: 'La lección calcula el jitter determinista a partir del número de identificación del cliente y el número de intento para que las pruebas sigan siendo reproducibles:', near: 'Prevenir la reconexión de un rebaño', note: 'Kept in English here; elsewhere machine-translated as "nerviosismo" and "retroceso nervioso" — unusable.' },
      ar: { term: 'التذبذب', sentence: 'بدلاً من ذلك، يجب علينا استخدام التراجع الأسي مع التذبذب (Jitter).', near: 'تنفيذ منطق إعادة المحاولة مع التراجع الأسي' },
    },
    lab: { zh: '随机抖动' },
  },
  {
    id: 'full-jitter',
    en: 'full jitter',
    docs: {
      es: { term: 'jitter', sentence: 'attempt 0: up to 250 ms', near: 'Prevenir la reconexión de un rebaño', note: '"up to" the capped exponential delay: the full-jitter form, without a name for it.' },
    },
    lab: { es: 'jitter completo', ar: 'تذبذب كامل', zh: '完全抖动' },
  },
  {
    id: 'equal-jitter',
    en: 'equal jitter',
    docs: {
      ar: { term: 'التذبذب', sentence: 'const jitter = Math.random() * 100;', near: 'async function retryWithBackoff', note: 'The article adds 0–100 ms to the whole exponential delay: an additive jitter, neither equal nor full.' },
    },
    lab: { es: 'jitter igual', ar: 'تذبذب متساوٍ', zh: '均等抖动' },
  },
  {
    id: 'decorrelated-jitter',
    en: 'decorrelated jitter',
    docs: {},
    lab: { es: 'jitter decorrelacionado', ar: 'تذبذب غير مترابط', zh: '去相关抖动' },
  },
  {
    id: 'back-pressure',
    en: 'back-pressure',
    docs: {
      es: { term: 'presión', sentence: 'Un productor de SSE puede generar progreso más rápido de lo que un cliente, proxy o red puede consumirlo.', near: 'La presión es parte de lo correcto', note: 'The heading renders "Backpressure is part of correctness"; the key-terms table keeps "Backpressure".' },
      zh: { term: '过载保护', sentence: '为MCP Server开发过载保护插件(基于RL的自适应限流)', near: '关键改进包括', note: 'Overload protection and adaptive rate limiting (限流), the server side of back-pressure.' },
    },
    lab: { es: 'contrapresión', ar: 'الضغط العكسي', zh: '背压' },
  },
  {
    id: 'degraded-mode',
    en: 'degraded mode',
    docs: {
      ar: { term: 'تدهور الوظائف بسلاسة', sentence: 'تضمن أنماط الصمود بقاء العميل متجاوباً وقادراً على تدهور الوظائف بسلاسة عندما تصبح أداة معينة غير متاحة.', near: 'لماذا يُعد الصمود مهماً في MCP' },
      zh: { term: '降级', sentence: '最令我们自豪的是,当后来OpenAI发生区域级故障时,我们的系统在11秒内完成了全自动降级切换,保证了核心业务100%可用。', near: '价值转化与商业影响' },
    },
    lab: { es: 'modo degradado', ar: 'الوضع المتدهور' },
  },
  {
    id: 'progress',
    en: 'progress',
    docs: {
      es: { term: 'progreso', sentence: 'El progreso es opcional. Un servidor puede aceptar un token de progreso y no emitir actualizaciones. Nunca convierta la presencia de un token en un tiempo infinito.', near: 'Las horas de espera necesitan dos relojes' },
    },
    lab: { ar: 'التقدم', zh: '进度' },
  },
  {
    id: 'task',
    en: 'task',
    docs: {
      es: { term: 'tarea', sentence: 'No borre el estado de tarea duradera cuando se cierra la conexión HTTP.', near: 'No es posible solicitar la cancelación' },
      zh: { term: '任务', sentence: '这种"重试风暴"现象导致单个故障请求最多产生了7个重复计算任务。', near: '中间层架构的特性陷阱', note: 'A unit of upstream work, not an MCP Task; the lab uses 任务 for the MCP Task too.' },
    },
    lab: { ar: 'المهمة' },
  },
  {
    id: 'stream',
    en: 'stream',
    docs: {
      es: { term: 'flujo', sentence: 'Una vez que el servidor observe la desconexión, debe dejar de funcionar y no debe enviar más mensajes para esa solicitud.', near: 'El cliente cancela cerrando el flujo de respuesta', note: 'Also "corriente" and "transmisión" for the same stream.' },
      ar: { term: 'التدفقات', sentence: 'في بنية MCP القياسية، يتواصل العميل (غالباً وكيل LLM) مع الخادم (مزود الأداة) عبر JSON-RPC فوق التدفقات.', near: 'لماذا يُعد الصمود مهماً في MCP' },
      zh: { term: '流式', sentence: '特别是在流式传输场景下,部分响应已到达客户端后发生的取消,会产生"半成品"结果,这是我们最初设计时完全未考虑的边界条件。', near: '协议层的行为冲突' },
    },
  },
  {
    id: 'reconnect',
    en: 'reconnect',
    docs: {
      es: { term: 'reconectar', sentence: 'No repitas una mutación insegura sólo porque su respuesta se perdió.', near: 'Reconectar significa recoger', note: 'The heading garbles "Reconnect means refetch" into "recoger".' },
    },
    lab: { ar: 'إعادة الاتصال', zh: '重连' },
  },
  {
    id: 'thundering-herd',
    en: 'thundering herd',
    docs: {
      es: { term: 'rebaño', sentence: 'Si 10,000 clientes se reconnectan exactamente en un segundo, el servidor de recuperación falla de nuevo.', near: 'Prevenir la reconexión de un rebaño' },
      zh: { term: '雪崩', sentence: '当时我还没意识到,这个自以为设计精良的重试机制,正在将局部故障催化成一场全集群雪崩。', near: '从雪崩到熔断', note: 'An avalanche; for the retry-driven kind the postmortem says 重试风暴 (retry storm).' },
    },
    lab: { ar: 'القطيع المندفع' },
  },
  {
    id: 'retry-storm',
    en: 'retry storm',
    docs: {
      zh: { term: '重试风暴', sentence: '这种"重试风暴"现象导致单个故障请求最多产生了7个重复计算任务。', near: '中间层架构的特性陷阱' },
    },
    lab: { es: 'tormenta de reintentos', ar: 'عاصفة إعادة المحاولة' },
  },
];

/** Protocol tokens: written as-is in every language, never translated. */
export const PROTOCOL_TOKENS: readonly string[] = [
  'MCP',
  'JSON-RPC',
  'SSE',
  'stdio',
  'Streamable HTTP',
  'notifications/cancelled',
  'notifications/progress',
  'tasks/cancel',
  'tasks/get',
  'subscriptions/listen',
  'Last-Event-ID',
  'requestId',
  'progressToken',
  'idempotencyKey',
];

