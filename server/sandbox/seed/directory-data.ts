// The demo directory of a Brazilian company: the platform's DEFAULT categories (with the
// establishments usually classified under them) and suppliers, plus entries a company adds itself.

/** DEFAULT categories, each with its DEFAULT establishments. */
export const DEFAULT_CATEGORIES: ReadonlyArray<[string, string[]]> = [
  [
    'Combustível',
    [
      'Posto Ipiranga Av. Paulista',
      'Shell Select Rebouças',
      'Posto BR Mania Marginal Pinheiros',
      'Auto Posto Bandeirantes',
    ],
  ],
  ['Alimentação', ['iFood', 'Restaurante Fogo de Chão', 'Padaria Bella Paulista', 'Outback Steakhouse', 'Rappi']],
  ['Transporte', ['Uber do Brasil', '99 Táxi', 'Metrô São Paulo', 'Estapar Estacionamentos', 'Sem Parar']],
  [
    'Hospedagem',
    ['Ibis São Paulo Paulista', 'Blue Tree Premium Faria Lima', 'Airbnb', 'Novotel Rio de Janeiro Santos Dumont'],
  ],
  ['Passagens aéreas', ['LATAM Airlines Brasil', 'Gol Linhas Aéreas', 'Azul Linhas Aéreas']],
  ['Material de escritório', ['Kalunga', 'Papelaria Universitária', 'Staples Brasil']],
  [
    'Software e assinaturas',
    ['Google Workspace', 'Microsoft 365', 'Amazon Web Services', 'Slack', 'Adobe Creative Cloud'],
  ],
  ['Telefonia e internet', ['Vivo Empresas', 'Claro Empresas', 'TIM Empresas']],
  ['Marketing e publicidade', ['Google Ads', 'Meta Ads', 'LinkedIn Ads']],
  ['Manutenção e reparos', ['Leroy Merlin', 'Telhanorte', 'C&C Casa e Construção']],
  ['Saúde e bem-estar', ['Drogasil', 'Droga Raia', 'Gympass']],
  ['Serviços profissionais', []],
  ['Impostos e taxas', []],
];

/** CUSTOM categories a company created (accounting codes included), with establishments it linked. */
export const CUSTOM_CATEGORIES: ReadonlyArray<[string, string[]]> = [
  ['3.1.01 Eventos e feiras', ['Expo Center Norte', 'Centro de Convenções Frei Caneca']],
  ['3.2.05 Treinamentos', ['Alura', 'Udemy', 'Escola Conquer']],
  ['Brindes corporativos', ['Brindes Paulista']],
  ['3.4.10 Viagens internacionais', []],
  ['Confraternizações', []],
];

export const DEFAULT_SUPPLIERS = [
  'Kalunga',
  'Amazon Brasil',
  'Mercado Livre',
  'Magazine Luiza',
  'Dell Computadores do Brasil',
  'Localiza Rent a Car',
  'Uber do Brasil',
  'LATAM Airlines Brasil',
  'Correios',
  'Vivo Empresas',
  'iFood',
  'Leroy Merlin',
];

export const CUSTOM_SUPPLIERS = [
  'Papelaria Santa Cecília Ltda',
  'Gráfica Rápida Express',
  'Contabilidade Moreira & Associados',
  'TechSupport Soluções em TI ME',
  'Buffet Sabor & Arte',
  'Transportadora Rodoviária Sul',
  'Limpeza Total Serviços Ltda',
  'Café Bom Dia Distribuidora',
];

export const COST_CENTERS = [
  'Administrativo',
  'Comercial',
  'Financeiro',
  'Comunicação',
  'Operações',
  'Recursos Humanos',
  'Tecnologia',
  'Jurídico',
  'Logística',
  'Atendimento ao Cliente',
];

/** People the legacy directory recorded as responsible for cost centers (the deprecated field). */
export const LEGACY_RESPONSIBLES = [
  'Mariana Souza',
  'Ricardo Nogueira',
  'Paula Tavares',
  'Sérgio Antunes',
  'Cláudia Ramos',
];
