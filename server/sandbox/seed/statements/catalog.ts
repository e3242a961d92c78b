// The platform's reference data for statements: banking transaction types, merchant category codes
// (MCC, ISO 18245) with their groups, and the classification (category) each one maps to.

export interface TransactionType {
  id: number;
  description: string;
  icon: string;
  subType: 'DEBIT' | 'CREDIT';
}

export const TRANSACTION_TYPES = {
  cardPurchase: { id: 1, description: 'Compra no cartão', icon: 'credit-card', subType: 'DEBIT' },
  pixSent: { id: 2, description: 'PIX enviado', icon: 'pix', subType: 'DEBIT' },
  pixReceived: { id: 3, description: 'PIX recebido', icon: 'pix', subType: 'CREDIT' },
  tedReceived: { id: 4, description: 'TED recebida', icon: 'bank', subType: 'CREDIT' },
  billPayment: { id: 5, description: 'Pagamento de boleto', icon: 'barcode', subType: 'DEBIT' },
  fee: { id: 6, description: 'Tarifa bancária', icon: 'receipt', subType: 'DEBIT' },
  refund: { id: 7, description: 'Estorno de compra', icon: 'undo', subType: 'CREDIT' },
  internationalPurchase: { id: 8, description: 'Compra internacional', icon: 'globe', subType: 'DEBIT' },
} as const satisfies Record<string, TransactionType>;

interface Classification {
  code: string;
  description: string;
}

export const CATEGORIES = {
  FOOD: { code: 'FOOD', description: 'Alimentação' },
  TRANSPORT: { code: 'TRANSPORT', description: 'Transporte' },
  TRAVEL: { code: 'TRAVEL', description: 'Viagens' },
  SOFTWARE: { code: 'SOFTWARE', description: 'Software e serviços digitais' },
  OFFICE: { code: 'OFFICE', description: 'Material de escritório' },
  SERVICES: { code: 'SERVICES', description: 'Serviços' },
  TRANSFERS: { code: 'TRANSFERS', description: 'Transferências' },
  BILLS: { code: 'BILLS', description: 'Contas e boletos' },
  FEES: { code: 'FEES', description: 'Tarifas' },
  INCOME: { code: 'INCOME', description: 'Recebimentos' },
} as const satisfies Record<string, Classification>;

interface Mcc {
  code: number;
  group: number;
  description: string;
  category: Classification;
  /** Typical merchants and a typical amount range in reais (minor units). */
  merchants: readonly string[];
  range: readonly [number, number];
}

export const MCCS: readonly Mcc[] = [
  {
    code: 5812,
    group: 1,
    description: 'Restaurantes',
    category: CATEGORIES.FOOD,
    merchants: ['OUTBACK STEAKHOUSE', 'COCO BAMBU', 'RESTAURANTE FAMILIA MANCINI', 'MADERO'],
    range: [4_500, 48_000],
  },
  {
    code: 5814,
    group: 1,
    description: 'Lanchonetes e fast food',
    category: CATEGORIES.FOOD,
    merchants: ['IFOOD *PEDIDO', 'MCDONALDS', 'STARBUCKS', 'BURGER KING'],
    range: [1_800, 16_000],
  },
  {
    code: 5411,
    group: 1,
    description: 'Supermercados',
    category: CATEGORIES.FOOD,
    merchants: ['PAO DE ACUCAR', 'CARREFOUR', 'ZONA SUL'],
    range: [3_000, 90_000],
  },
  {
    code: 4121,
    group: 2,
    description: 'Táxi e transporte por aplicativo',
    category: CATEGORIES.TRANSPORT,
    merchants: ['UBER *TRIP', '99 *CORRIDA', 'CABIFY'],
    range: [1_200, 12_000],
  },
  {
    code: 5541,
    group: 2,
    description: 'Postos de combustível',
    category: CATEGORIES.TRANSPORT,
    merchants: ['POSTO IPIRANGA', 'SHELL SELECT', 'POSTO BR'],
    range: [8_000, 45_000],
  },
  {
    code: 4511,
    group: 3,
    description: 'Companhias aéreas',
    category: CATEGORIES.TRAVEL,
    merchants: ['LATAM AIRLINES', 'GOL LINHAS AEREAS', 'AZUL LINHAS AEREAS'],
    range: [35_000, 380_000],
  },
  {
    code: 7011,
    group: 3,
    description: 'Hotéis',
    category: CATEGORIES.TRAVEL,
    merchants: ['IBIS BUDGET', 'HOTEL UNIQUE', 'MERCURE', 'BOOKING.COM'],
    range: [25_000, 180_000],
  },
  {
    code: 5734,
    group: 4,
    description: 'Lojas de software',
    category: CATEGORIES.SOFTWARE,
    merchants: ['MICROSOFT 365', 'ADOBE', 'TOTVS'],
    range: [5_000, 120_000],
  },
  {
    code: 7372,
    group: 4,
    description: 'Serviços de TI e nuvem',
    category: CATEGORIES.SOFTWARE,
    merchants: ['AWS BRASIL', 'GOOGLE CLOUD', 'LOCAWEB'],
    range: [10_000, 900_000],
  },
  {
    code: 5943,
    group: 5,
    description: 'Papelarias e material de escritório',
    category: CATEGORIES.OFFICE,
    merchants: ['KALUNGA', 'STAPLES', 'PAPELARIA UNIVERSAL'],
    range: [2_000, 60_000],
  },
  {
    code: 4814,
    group: 6,
    description: 'Telecomunicações',
    category: CATEGORIES.SERVICES,
    merchants: ['VIVO EMPRESAS', 'CLARO', 'TIM'],
    range: [9_000, 80_000],
  },
  {
    code: 8999,
    group: 6,
    description: 'Serviços profissionais',
    category: CATEGORIES.SERVICES,
    merchants: ['CONTABILIZEI', 'JUSBRASIL', 'DOCUSIGN'],
    range: [5_000, 250_000],
  },
];

/** Purchases abroad, in US dollars (minor units). */
export const FOREIGN_MERCHANTS: ReadonlyArray<{
  name: string;
  mcc: number;
  place: string;
  range: readonly [number, number];
}> = [
  { name: 'AMAZON WEB SERVICES', mcc: 7372, place: 'SEATTLE - US', range: [2_000, 300_000] },
  { name: 'GOOGLE *WORKSPACE', mcc: 7372, place: 'MOUNTAIN VIEW - US', range: [1_200, 60_000] },
  { name: 'ZOOM.US', mcc: 5734, place: 'SAN JOSE - US', range: [1_499, 25_000] },
  { name: 'SLACK TECHNOLOGIES', mcc: 5734, place: 'SAN FRANCISCO - US', range: [875, 40_000] },
  { name: 'FIGMA', mcc: 5734, place: 'SAN FRANCISCO - US', range: [1_500, 18_000] },
  { name: 'LINKEDIN *PREMIUM', mcc: 8999, place: 'SUNNYVALE - US', range: [2_999, 12_000] },
  { name: 'MARRIOTT MIAMI', mcc: 7011, place: 'MIAMI - US', range: [18_000, 120_000] },
];

export const PLACES = [
  'SAO PAULO - BR',
  'RIO DE JANEIRO - BR',
  'BELO HORIZONTE - BR',
  'CURITIBA - BR',
  'PORTO ALEGRE - BR',
  'BRASILIA - BR',
  'RECIFE - BR',
];

export const COUNTERPARTS = {
  suppliers: [
    'GRAFICA PAULISTA LTDA',
    'LIMPEZA TOTAL SERVICOS LTDA',
    'TRANSPORTADORA RAPIDO SUL',
    'ESCRITORIO SILVA CONTABILIDADE',
    'MOVEIS CORPORATIVOS SA',
    'SEGURANCA ALFA EIRELI',
  ],
  customers: [
    'ACME DISTRIBUIDORA SA',
    'MERCADO BOM PRECO LTDA',
    'CONSTRUTORAHORIZONTE',
    'FARMACIA VIDA LTDA',
    'TECH SOLUTIONS ME',
    'AGRO CAMPO VERDE SA',
  ],
  billers: [
    'ENEL SP',
    'SABESP',
    'COMGAS',
    'PREFEITURA DE SAO PAULO - ISS',
    'RECEITA FEDERAL - DARF',
    'CONDOMINIO ED. FARIA LIMA',
  ],
};

export const mccByCode = (code: number) => MCCS.find((m) => m.code === code);

/** The IOF rate on purchases abroad (3.5%). */
export const IOF_FOREIGN_PURCHASE = 0.035;
