/**
 * The vehicles the demo dealers stock: real makes and models with plausible badges, series,
 * engines and new prices (whole units of the market's currency). Demo data only.
 */

export type ItemType = 'car' | 'truck' | 'motorcycle' | 'caravan' | 'campervan';
export type Fuel = 'Petrol' | 'Diesel' | 'Hybrid' | 'Plug-in Hybrid' | 'Electric' | 'None';
export type Drive = 'Front Wheel Drive' | 'Rear Wheel Drive' | 'All Wheel Drive' | 'Four Wheel Drive' | 'Chain' | 'Belt' | 'Shaft';
export type Transmission = 'Automatic' | 'Manual' | 'Automated Manual' | 'None';
/** The drawing used for the placeholder photos. */
export type Silhouette =
  | 'sedan'
  | 'hatch'
  | 'suv'
  | 'ute'
  | 'van'
  | 'truck'
  | 'prime-mover'
  | 'motorcycle'
  | 'caravan'
  | 'campervan';

/** [badge, new price, engine, fuel, drive, transmission] */
export type Variant = readonly [string, number, string, Fuel, Drive | null, Transmission];

export type ModelSpec = {
  itemType: ItemType;
  make: string;
  model: string;
  body: string;
  silhouette: Silhouette;
  seats: number | null;
  doors: number | null;
  series?: readonly string[];
  /** First model year sold; used stock is never older. */
  from: number;
  variants: readonly Variant[];
};

const P = 'Petrol';
const D = 'Diesel';
const H = 'Hybrid';
const PH = 'Plug-in Hybrid';
const E = 'Electric';
const FWD = 'Front Wheel Drive';
const RWD = 'Rear Wheel Drive';
const AWD = 'All Wheel Drive';
const FOURWD = 'Four Wheel Drive';
const A = 'Automatic';
const M = 'Manual';
const AMT = 'Automated Manual';

type Shape = { body: string; silhouette: Silhouette; seats: number; doors: number };
const SEDAN: Shape = { body: 'Sedan', silhouette: 'sedan', seats: 5, doors: 4 };
const HATCH: Shape = { body: 'Hatchback', silhouette: 'hatch', seats: 5, doors: 5 };
const SUV: Shape = { body: 'SUV', silhouette: 'suv', seats: 5, doors: 5 };
const SUV7: Shape = { body: 'SUV', silhouette: 'suv', seats: 7, doors: 5 };
const UTE: Shape = { body: 'Ute', silhouette: 'ute', seats: 5, doors: 4 };
const WAGON: Shape = { body: 'Wagon', silhouette: 'suv', seats: 5, doors: 5 };
const COUPE: Shape = { body: 'Coupe', silhouette: 'sedan', seats: 4, doors: 2 };
const VAN: Shape = { body: 'Van', silhouette: 'van', seats: 3, doors: 4 };
const PEOPLE: Shape = { body: 'People Mover', silhouette: 'van', seats: 8, doors: 5 };

function car(make: string, model: string, shape: Shape, from: number, variants: Variant[], series?: string[]): ModelSpec {
  return { itemType: 'car', make, model, ...shape, from, variants, series };
}

/** Australian-market passenger cars, utes and vans (AUD). */
export const AU_CARS: readonly ModelSpec[] = [
  car('Toyota', 'HiLux', UTE, 2012, [
    ['Workmate', 38990, '2.4L 4cyl Turbo Diesel', D, RWD, A],
    ['SR', 52990, '2.8L 4cyl Turbo Diesel', D, FOURWD, M],
    ['SR5', 62990, '2.8L 4cyl Turbo Diesel', D, FOURWD, A],
    ['Rogue', 72990, '2.8L 4cyl Turbo Diesel', D, FOURWD, A],
    ['GR Sport', 78990, '2.8L 4cyl Turbo Diesel', D, FOURWD, A],
  ], ['GUN126R', 'GUN136R', 'KUN26R']),
  car('Toyota', 'RAV4', SUV, 2013, [
    ['GX', 40990, '2.0L 4cyl', P, FWD, A],
    ['GXL Hybrid', 47990, '2.5L 4cyl Hybrid', H, FWD, A],
    ['Cruiser Hybrid', 54990, '2.5L 4cyl Hybrid', H, AWD, A],
    ['Edge', 57990, '2.5L 4cyl', P, AWD, A],
  ], ['AXAH54R', 'MXAA52R', 'ASA44R']),
  car('Toyota', 'Corolla', HATCH, 2012, [
    ['Ascent Sport', 29990, '2.0L 4cyl', P, FWD, A],
    ['SX Hybrid', 35990, '1.8L 4cyl Hybrid', H, FWD, A],
    ['ZR Hybrid', 39990, '1.8L 4cyl Hybrid', H, FWD, A],
  ], ['ZWE211R', 'MZEA12R']),
  car('Toyota', 'LandCruiser 300', SUV7, 2021, [
    ['GX', 98990, '3.3L V6 Twin Turbo Diesel', D, FOURWD, A],
    ['GXL', 112990, '3.3L V6 Twin Turbo Diesel', D, FOURWD, A],
    ['Sahara', 142990, '3.3L V6 Twin Turbo Diesel', D, FOURWD, A],
  ], ['FJA300R']),
  car('Toyota', 'Camry', SEDAN, 2012, [
    ['Ascent Hybrid', 39990, '2.5L 4cyl Hybrid', H, FWD, A],
    ['SL Hybrid', 51990, '2.5L 4cyl Hybrid', H, FWD, A],
  ], ['AXVH70R', 'AXVH71R']),
  car('Toyota', 'Kluger', SUV7, 2014, [
    ['GX', 56990, '2.4L 4cyl Turbo', P, FWD, A],
    ['Grande Hybrid', 82990, '2.5L 4cyl Hybrid', H, AWD, A],
  ], ['AXUH78R', 'GSU50R']),
  car('Mazda', 'CX-5', SUV, 2012, [
    ['Maxx', 36990, '2.0L 4cyl', P, FWD, A],
    ['Maxx Sport', 41990, '2.5L 4cyl', P, AWD, A],
    ['GT SP', 50990, '2.5L 4cyl Turbo', P, AWD, A],
    ['Akera', 54990, '2.5L 4cyl Turbo', P, AWD, A],
  ], ['KF Series', 'KE Series']),
  car('Mazda', 'CX-30', SUV, 2020, [
    ['G20 Pure', 33990, '2.0L 4cyl', P, FWD, A],
    ['G25 Touring', 40990, '2.5L 4cyl', P, AWD, A],
    ['G25 Astina', 47990, '2.5L 4cyl', P, AWD, A],
  ], ['DM Series']),
  car('Mazda', 'Mazda3', HATCH, 2012, [
    ['G20 Pure', 30990, '2.0L 4cyl', P, FWD, A],
    ['G25 Evolve', 35990, '2.5L 4cyl', P, FWD, A],
    ['G25 Astina', 41990, '2.5L 4cyl', P, FWD, A],
  ], ['BP Series', 'BN Series']),
  car('Mazda', 'BT-50', UTE, 2012, [
    ['XS', 44990, '1.9L 4cyl Turbo Diesel', D, FOURWD, A],
    ['XTR', 58990, '3.0L 4cyl Turbo Diesel', D, FOURWD, A],
    ['Thunder', 68990, '3.0L 4cyl Turbo Diesel', D, FOURWD, A],
  ], ['TF Series', 'UR Series']),
  car('Mazda', 'CX-60', SUV, 2023, [
    ['G40e Evolve', 59990, '2.5L 4cyl Plug-in Hybrid', PH, AWD, A],
    ['D50e GT', 70990, '3.3L 6cyl Turbo Diesel', D, AWD, A],
  ], ['KH Series']),
  car('Mazda', 'CX-90', SUV7, 2023, [
    ['G50e Touring', 76990, '3.3L 6cyl Turbo', P, AWD, A],
    ['D50e Azami', 94990, '3.3L 6cyl Turbo Diesel', D, AWD, A],
  ], ['KK Series']),
  car('Kia', 'Sportage', SUV, 2013, [
    ['S', 36990, '2.0L 4cyl', P, FWD, A],
    ['SX', 40990, '2.0L 4cyl', P, FWD, A],
    ['GT-Line Hybrid', 56990, '1.6L 4cyl Turbo Hybrid', H, AWD, A],
  ], ['NQ5', 'QL']),
  car('Kia', 'Sorento', SUV7, 2013, [
    ['S', 50990, '3.5L V6', P, FWD, A],
    ['GT-Line', 69990, '2.2L 4cyl Turbo Diesel', D, AWD, A],
  ], ['MQ4', 'UM']),
  car('Kia', 'Cerato', HATCH, 2013, [
    ['S', 27990, '2.0L 4cyl', P, FWD, A],
    ['Sport+', 32990, '2.0L 4cyl', P, FWD, A],
    ['GT', 37990, '1.6L 4cyl Turbo', P, FWD, A],
  ], ['BD', 'YD']),
  car('Kia', 'Carnival', PEOPLE, 2015, [
    ['S', 52990, '3.5L V6', P, FWD, A],
    ['Platinum', 75990, '2.2L 4cyl Turbo Diesel', D, FWD, A],
  ], ['KA4', 'YP']),
  car('Kia', 'EV6', SUV, 2022, [
    ['Air', 72590, 'Electric 168kW', E, RWD, A],
    ['GT-Line AWD', 87590, 'Dual motor Electric 239kW', E, AWD, A],
  ], ['CV']),
  car('Chery', 'Omoda 5', SUV, 2023, [
    ['BX', 29990, '1.5L 4cyl Turbo', P, FWD, A],
    ['EX', 34990, '1.6L 4cyl Turbo', P, FWD, A],
  ]),
  car('Chery', 'Tiggo 4 Pro', SUV, 2024, [
    ['Urban', 23990, '1.5L 4cyl', P, FWD, A],
    ['Hybrid Ultimate', 32990, '1.5L 4cyl Hybrid', H, FWD, A],
  ]),
  car('Chery', 'Tiggo 7 Pro', SUV, 2023, [
    ['Urban', 34990, '1.5L 4cyl Turbo', P, FWD, A],
    ['Ultimate', 39990, '1.5L 4cyl Turbo', P, FWD, A],
  ]),
  car('Chery', 'Tiggo 9', SUV7, 2025, [['Ultimate', 54990, '2.0L 4cyl Turbo', P, AWD, A]]),
  car('Ford', 'Ranger', UTE, 2012, [
    ['XL', 49990, '2.0L 4cyl Turbo Diesel', D, FOURWD, A],
    ['XLT', 63990, '2.0L 4cyl Twin Turbo Diesel', D, FOURWD, A],
    ['Wildtrak', 72990, '3.0L V6 Turbo Diesel', D, FOURWD, A],
    ['Raptor', 89990, '3.0L V6 Twin Turbo', P, FOURWD, A],
  ], ['PY', 'PX MkIII', 'PX MkII']),
  car('Ford', 'Everest', SUV7, 2015, [
    ['Ambiente', 59990, '2.0L 4cyl Twin Turbo Diesel', D, RWD, A],
    ['Trend', 68990, '2.0L 4cyl Twin Turbo Diesel', D, FOURWD, A],
    ['Platinum', 82990, '3.0L V6 Turbo Diesel', D, FOURWD, A],
  ], ['UB', 'UA II']),
  car('Ford', 'Mustang', COUPE, 2016, [
    ['GT Fastback', 82990, '5.0L V8', P, RWD, M],
    ['EcoBoost', 67990, '2.3L 4cyl Turbo', P, RWD, A],
  ], ['FN', 'S550']),
  car('Hyundai', 'i30', HATCH, 2012, [
    ['Active', 27990, '2.0L 4cyl', P, FWD, A],
    ['N Line', 33990, '1.6L 4cyl Turbo', P, FWD, A],
    ['N', 49990, '2.0L 4cyl Turbo', P, FWD, M],
  ], ['PD.V4', 'PD.3']),
  car('Hyundai', 'Tucson', SUV, 2015, [
    ['Base', 36990, '2.0L 4cyl', P, FWD, A],
    ['Elite', 44990, '2.0L 4cyl', P, FWD, A],
    ['Highlander N Line', 56990, '1.6L 4cyl Turbo', P, AWD, A],
  ], ['NX4.V2', 'TL3']),
  car('Hyundai', 'Santa Fe', SUV7, 2013, [
    ['Active', 52990, '2.2L 4cyl Turbo Diesel', D, AWD, A],
    ['Calligraphy Hybrid', 75990, '1.6L 4cyl Turbo Hybrid', H, AWD, A],
  ], ['MX5', 'TM.V4']),
  car('Hyundai', 'Kona', SUV, 2018, [
    ['Active', 32990, '2.0L 4cyl', P, FWD, A],
    ['Premium Electric', 62990, 'Electric 150kW', E, FWD, A],
  ], ['SX2', 'OS.V4']),
  car('Mitsubishi', 'Triton', UTE, 2012, [
    ['GLX', 44990, '2.4L 4cyl Turbo Diesel', D, FOURWD, M],
    ['GLS', 57990, '2.4L 4cyl Bi-Turbo Diesel', D, FOURWD, A],
  ], ['MV', 'MR', 'MQ']),
  car('Mitsubishi', 'Outlander', SUV7, 2013, [
    ['ES', 38990, '2.5L 4cyl', P, FWD, A],
    ['Exceed PHEV', 64990, '2.4L 4cyl Plug-in Hybrid', PH, AWD, A],
  ], ['ZM', 'ZL', 'ZK']),
  car('Mitsubishi', 'ASX', SUV, 2012, [['ES', 28990, '2.0L 4cyl', P, FWD, A], ['Exceed', 36490, '2.4L 4cyl', P, FWD, A]], ['XD', 'XC']),
  car('Nissan', 'Navara', UTE, 2012, [
    ['SL', 48990, '2.3L 4cyl Twin Turbo Diesel', D, FOURWD, A],
    ['PRO-4X', 64990, '2.3L 4cyl Twin Turbo Diesel', D, FOURWD, A],
  ], ['D23 Series 4', 'D40']),
  car('Nissan', 'X-Trail', SUV, 2013, [
    ['ST', 38990, '2.5L 4cyl', P, FWD, A],
    ['Ti e-POWER', 57990, '1.5L 3cyl Turbo Hybrid', H, AWD, A],
  ], ['T33', 'T32']),
  car('Nissan', 'Patrol', SUV7, 2013, [['Ti', 91990, '5.6L V8', P, FOURWD, A], ['Ti-L', 107990, '5.6L V8', P, FOURWD, A]], ['Y62 Series 5']),
  car('Volkswagen', 'Golf', HATCH, 2012, [
    ['Life', 36990, '1.4L 4cyl Turbo', P, FWD, A],
    ['GTI', 56990, '2.0L 4cyl Turbo', P, FWD, A],
    ['R', 69990, '2.0L 4cyl Turbo', P, AWD, A],
  ], ['Mk8', 'Mk7.5']),
  car('Volkswagen', 'Tiguan', SUV, 2013, [
    ['110TSI Life', 42990, '1.4L 4cyl Turbo', P, FWD, A],
    ['162TSI R-Line', 62990, '2.0L 4cyl Turbo', P, AWD, A],
  ], ['5N', 'AD1']),
  car('Volkswagen', 'Amarok', UTE, 2012, [
    ['Core', 55990, '2.0L 4cyl Bi-Turbo Diesel', D, FOURWD, A],
    ['Aventura', 79990, '3.0L V6 Turbo Diesel', D, FOURWD, A],
  ], ['NW', '2H']),
  car('Subaru', 'Forester', WAGON, 2012, [
    ['2.5i', 38990, '2.5L 4cyl', P, AWD, A],
    ['Hybrid S', 50990, '2.0L 4cyl Hybrid', H, AWD, A],
  ], ['S6', 'S5']),
  car('Subaru', 'Outback', WAGON, 2012, [
    ['AWD', 44990, '2.5L 4cyl', P, AWD, A],
    ['XT Touring', 58990, '2.4L 4cyl Turbo', P, AWD, A],
  ], ['6GEN', '5GEN']),
  car('Subaru', 'WRX', SEDAN, 2014, [['Base', 47990, '2.4L 4cyl Turbo', P, AWD, M], ['tS', 59990, '2.4L 4cyl Turbo', P, AWD, A]], ['VN', 'VA']),
  car('Isuzu', 'D-Max', UTE, 2012, [
    ['SX', 44990, '3.0L 4cyl Turbo Diesel', D, FOURWD, M],
    ['LS-U', 59990, '3.0L 4cyl Turbo Diesel', D, FOURWD, A],
    ['X-Terrain', 68990, '3.0L 4cyl Turbo Diesel', D, FOURWD, A],
  ], ['RG', 'TF']),
  car('Isuzu', 'MU-X', SUV7, 2014, [['LS-M', 55990, '3.0L 4cyl Turbo Diesel', D, FOURWD, A], ['LS-T', 66990, '3.0L 4cyl Turbo Diesel', D, FOURWD, A]], ['RJ', 'UC']),
  car('MG', 'ZS', SUV, 2018, [['Excite', 24990, '1.5L 4cyl', P, FWD, A], ['Essence EV', 44990, 'Electric 130kW', E, FWD, A]], ['AZS1']),
  car('MG', 'MG3', HATCH, 2013, [['Excite Hybrid+', 27990, '1.5L 4cyl Hybrid', H, FWD, A], ['Core', 21990, '1.5L 4cyl', P, FWD, A]]),
  car('Honda', 'CR-V', SUV, 2012, [['VTi', 39990, '1.5L 4cyl Turbo', P, FWD, A], ['e:HEV RS', 59990, '2.0L 4cyl Hybrid', H, AWD, A]], ['RS', 'RW']),
  car('Honda', 'Civic', HATCH, 2012, [['VTi-LX', 47200, '1.5L 4cyl Turbo', P, FWD, A], ['Type R', 72600, '2.0L 4cyl Turbo', P, FWD, M]], ['11th Gen', '10th Gen']),
  car('Tesla', 'Model 3', SEDAN, 2019, [['Rear-Wheel Drive', 54900, 'Electric 208kW', E, RWD, A], ['Long Range', 66900, 'Dual motor Electric 366kW', E, AWD, A]]),
  car('Tesla', 'Model Y', SUV, 2022, [['Rear-Wheel Drive', 58900, 'Electric 220kW', E, RWD, A], ['Long Range', 68900, 'Dual motor Electric 378kW', E, AWD, A]]),
  car('BYD', 'Atto 3', SUV, 2022, [['Standard Range', 44499, 'Electric 150kW', E, FWD, A], ['Extended Range', 47499, 'Electric 150kW', E, FWD, A]]),
  car('GWM', 'Cannon', UTE, 2021, [['Lux', 42990, '2.4L 4cyl Turbo Diesel', D, FOURWD, A], ['Alpha Ultra', 61990, '2.4L 4cyl Turbo Diesel', D, FOURWD, A]]),
  car('Suzuki', 'Jimny', SUV, 2018, [['Lite', 31990, '1.5L 4cyl', P, FOURWD, M], ['XL', 36990, '1.5L 4cyl', P, FOURWD, A]], ['GJ']),
  car('Suzuki', 'Swift', HATCH, 2012, [['GL', 23490, '1.2L 3cyl Hybrid', H, FWD, A], ['Sport', 29990, '1.4L 4cyl Turbo', P, FWD, M]], ['AZ', 'FZ']),
  car('Holden', 'Commodore', SEDAN, 2012, [['SV6', 42990, '3.6L V6', P, RWD, A], ['SS-V Redline', 58990, '6.2L V8', P, RWD, M]], ['VF II', 'VF', 'ZB']),
  car('Holden', 'Colorado', UTE, 2012, [['LS', 45990, '2.8L 4cyl Turbo Diesel', D, FOURWD, A], ['Z71', 59990, '2.8L 4cyl Turbo Diesel', D, FOURWD, A]], ['RG MY20', 'RG']),
  car('Toyota', 'HiAce', VAN, 2012, [['LWB', 49990, '2.8L 4cyl Turbo Diesel', D, RWD, A], ['SLWB', 54990, '2.8L 4cyl Turbo Diesel', D, RWD, A]], ['GDH300R', 'KDH201R']),
];

/** Škoda range: stocked with the make written 'ŠKODA' on the franchise site. */
export const SKODA_CARS: readonly ModelSpec[] = [
  car('ŠKODA', 'Fabia', HATCH, 2015, [['Monte Carlo', 37990, '1.5L 4cyl Turbo', P, FWD, A], ['Style', 31990, '1.0L 3cyl Turbo', P, FWD, A]], ['PJ', 'NJ']),
  car('ŠKODA', 'Scala', HATCH, 2020, [['110TSI Signature', 38990, '1.5L 4cyl Turbo', P, FWD, A], ['Monte Carlo', 40990, '1.5L 4cyl Turbo', P, FWD, A]], ['NW']),
  car('ŠKODA', 'Kamiq', SUV, 2020, [['110TSI Select', 36990, '1.5L 4cyl Turbo', P, FWD, A], ['Monte Carlo', 41990, '1.5L 4cyl Turbo', P, FWD, A]], ['NW4']),
  car('ŠKODA', 'Octavia', SEDAN, 2013, [
    ['110TSI Style', 39990, '1.4L 4cyl Turbo', P, FWD, A],
    ['RS', 57990, '2.0L 4cyl Turbo', P, FWD, A],
  ], ['NX', 'NE']),
  car('ŠKODA', 'Octavia Wagon', WAGON, 2013, [['110TSI Style', 41490, '1.4L 4cyl Turbo', P, FWD, A], ['RS', 59490, '2.0L 4cyl Turbo', P, FWD, A]], ['NX', 'NE']),
  car('ŠKODA', 'Karoq', SUV, 2018, [['110TSI Select', 45990, '1.4L 4cyl Turbo', P, FWD, A], ['140TSI Sportline', 54990, '2.0L 4cyl Turbo', P, AWD, A]], ['NU']),
  car('ŠKODA', 'Kodiaq', SUV7, 2017, [
    ['Select', 56990, '2.0L 4cyl Turbo', P, AWD, A],
    ['Sportline', 64990, '2.0L 4cyl Turbo', P, AWD, A],
    ['RS', 73990, '2.0L 4cyl Turbo', P, AWD, A],
  ], ['PS', 'NS']),
  car('ŠKODA', 'Superb', SEDAN, 2013, [['206TSI Sportline', 64990, '2.0L 4cyl Turbo', P, AWD, A], ['162TSI Style', 54990, '2.0L 4cyl Turbo', P, FWD, A]], ['3V', '3T']),
  car('ŠKODA', 'Enyaq', SUV, 2024, [['85 Sportline', 72990, 'Electric 210kW', E, RWD, A], ['85x Sportline', 77990, 'Dual motor Electric 210kW', E, AWD, A]], ['5A']),
];

/** New Zealand: the Australian range plus the Japanese imports NZ yards are full of (NZD ≈ AUD × 1.08). */
export const NZ_IMPORTS: readonly ModelSpec[] = [
  car('Toyota', 'Aqua', HATCH, 2012, [['S', 24990, '1.5L 4cyl Hybrid', H, FWD, A], ['G', 27990, '1.5L 4cyl Hybrid', H, FWD, A]], ['NHP10']),
  car('Toyota', 'Prius', HATCH, 2012, [['S Touring', 32990, '1.8L 4cyl Hybrid', H, FWD, A]], ['ZVW50', 'ZVW30']),
  car('Mazda', 'Axela', HATCH, 2013, [['15S', 22990, '1.5L 4cyl', P, FWD, A], ['20S', 25990, '2.0L 4cyl', P, FWD, A]], ['BM']),
  car('Mazda', 'Demio', HATCH, 2014, [['13S', 19990, '1.3L 4cyl', P, FWD, A], ['XD Touring', 23990, '1.5L 4cyl Turbo Diesel', D, FWD, A]], ['DJ']),
  car('Nissan', 'Leaf', HATCH, 2013, [['X', 45990, 'Electric 80kW', E, FWD, A], ['e+', 59990, 'Electric 160kW', E, FWD, A]], ['ZE1', 'ZE0']),
  car('Nissan', 'Note', HATCH, 2013, [['e-POWER X', 25990, '1.2L 3cyl Hybrid', H, FWD, A]], ['E12']),
  car('Honda', 'Fit', HATCH, 2013, [['13G', 19990, '1.3L 4cyl', P, FWD, A], ['Hybrid', 23990, '1.5L 4cyl Hybrid', H, FWD, A]], ['GK3', 'GP5']),
  car('Mitsubishi', 'Outlander PHEV', SUV, 2014, [['VRX', 64990, '2.4L 4cyl Plug-in Hybrid', PH, AWD, A]], ['ZM', 'ZL']),
];

/** United States (USD). */
export const US_CARS: readonly ModelSpec[] = [
  car('Ford', 'F-150', { ...UTE, body: 'Pickup Truck' }, 2012, [
    ['XL', 38990, '3.3L V6', P, RWD, A],
    ['XLT', 48990, '2.7L V6 EcoBoost', P, FOURWD, A],
    ['Lariat', 62990, '3.5L V6 EcoBoost', P, FOURWD, A],
    ['King Ranch', 72990, '3.5L V6 PowerBoost Hybrid', H, FOURWD, A],
  ], ['14th Gen', '13th Gen']),
  car('Chevrolet', 'Silverado 1500', { ...UTE, body: 'Pickup Truck' }, 2012, [
    ['WT', 37990, '2.7L 4cyl Turbo', P, RWD, A],
    ['LT', 49990, '5.3L V8', P, FOURWD, A],
    ['LTZ', 60990, '6.2L V8', P, FOURWD, A],
  ]),
  car('Ram', '1500', { ...UTE, body: 'Pickup Truck' }, 2012, [
    ['Tradesman', 40990, '3.6L V6', P, RWD, A],
    ['Big Horn', 47990, '5.7L V8 HEMI', P, FOURWD, A],
    ['Laramie', 59990, '3.0L I6 Twin Turbo', P, FOURWD, A],
  ], ['DT', 'DS']),
  car('Toyota', 'Tacoma', { ...UTE, body: 'Pickup Truck' }, 2012, [
    ['SR5', 36990, '2.4L 4cyl Turbo', P, RWD, A],
    ['TRD Off-Road', 45990, '2.4L 4cyl Turbo', P, FOURWD, A],
  ]),
  car('Toyota', 'Camry', SEDAN, 2012, [['LE', 28990, '2.5L 4cyl Hybrid', H, FWD, A], ['XSE', 34990, '2.5L 4cyl Hybrid', H, AWD, A]]),
  car('Toyota', 'RAV4', SUV, 2013, [['LE', 29990, '2.5L 4cyl', P, FWD, A], ['XLE Premium', 35990, '2.5L 4cyl', P, AWD, A], ['Prime XSE', 44990, '2.5L 4cyl Plug-in Hybrid', PH, AWD, A]]),
  car('Honda', 'Accord', SEDAN, 2012, [['LX', 28990, '1.5L 4cyl Turbo', P, FWD, A], ['Touring Hybrid', 38990, '2.0L 4cyl Hybrid', H, FWD, A]]),
  car('Honda', 'CR-V', SUV, 2012, [['EX', 32990, '1.5L 4cyl Turbo', P, FWD, A], ['Sport-L Hybrid', 39990, '2.0L 4cyl Hybrid', H, AWD, A]]),
  car('Honda', 'Civic', SEDAN, 2012, [['LX', 24990, '2.0L 4cyl', P, FWD, A], ['Si', 29990, '1.5L 4cyl Turbo', P, FWD, M]]),
  car('Jeep', 'Wrangler', SUV, 2012, [['Sport', 33990, '3.6L V6', P, FOURWD, M], ['Rubicon', 48990, '3.6L V6', P, FOURWD, A]], ['JL', 'JK']),
  car('Jeep', 'Grand Cherokee', SUV, 2012, [['Laredo', 39990, '3.6L V6', P, FOURWD, A], ['Limited', 46990, '3.6L V6', P, FOURWD, A]], ['WL', 'WK2']),
  car('Chevrolet', 'Tahoe', SUV7, 2012, [['LS', 58990, '5.3L V8', P, RWD, A], ['Z71', 67990, '5.3L V8', P, FOURWD, A]]),
  car('GMC', 'Sierra 1500', { ...UTE, body: 'Pickup Truck' }, 2012, [['SLE', 50990, '5.3L V8', P, FOURWD, A], ['Denali', 69990, '6.2L V8', P, FOURWD, A]]),
  car('Ford', 'Explorer', SUV7, 2012, [['XLT', 40990, '2.3L 4cyl EcoBoost', P, RWD, A], ['ST', 54990, '3.0L V6 EcoBoost', P, AWD, A]]),
  car('Nissan', 'Altima', SEDAN, 2012, [['SV', 27990, '2.5L 4cyl', P, FWD, A], ['SR', 29990, '2.5L 4cyl', P, AWD, A]]),
  car('Tesla', 'Model 3', SEDAN, 2018, [['Long Range', 47990, 'Dual motor Electric', E, AWD, A]]),
  car('Hyundai', 'Tucson', SUV, 2015, [['SEL', 30990, '2.5L 4cyl', P, FWD, A], ['Limited Hybrid', 39990, '1.6L 4cyl Turbo Hybrid', H, AWD, A]]),
  car('Chevrolet', 'Equinox', SUV, 2012, [['LT', 28990, '1.5L 4cyl Turbo', P, FWD, A]]),
];

function truck(make: string, model: string, body: string, silhouette: Silhouette, from: number, variants: Variant[], series?: string[]): ModelSpec {
  return { itemType: 'truck', make, model, body, silhouette, seats: 3, doors: 2, from, variants, series };
}

/** Light, medium and heavy trucks (AUD, excluding GST would be typical; shown drive away here). */
export const TRUCKS: readonly ModelSpec[] = [
  truck('Isuzu', 'NLR 45-150', 'Cab Chassis', 'truck', 2012, [['Traypack', 76990, '3.0L 4cyl Turbo Diesel', D, RWD, AMT], ['Tipper', 84990, '3.0L 4cyl Turbo Diesel', D, RWD, AMT]], ['N Series']),
  truck('Isuzu', 'NPR 75-190', 'Pantech', 'truck', 2012, [['Pantech', 109990, '5.2L 4cyl Turbo Diesel', D, RWD, AMT], ['Crew Cab', 112990, '5.2L 4cyl Turbo Diesel', D, RWD, A]], ['N Series']),
  truck('Isuzu', 'FRR 110-240', 'Refrigerated Pantech', 'truck', 2013, [['Refrigerated Pantech', 168990, '5.2L 4cyl Turbo Diesel', D, RWD, AMT]], ['F Series']),
  truck('Isuzu', 'FVZ 260-300', 'Tipper', 'truck', 2013, [['Tipper', 214990, '7.8L 6cyl Turbo Diesel', D, RWD, AMT]], ['F Series']),
  truck('Hino', '300 Series 616', 'Tray', 'truck', 2012, [['Tray', 79990, '4.0L 4cyl Turbo Diesel', D, RWD, AMT], ['Tipper', 88990, '4.0L 4cyl Turbo Diesel', D, RWD, A]], ['XKU']),
  truck('Hino', '500 Series FD 1124', 'Pantech', 'truck', 2013, [['Pantech', 169990, '7.7L 6cyl Turbo Diesel', D, RWD, AMT], ['Curtainsider', 172990, '7.7L 6cyl Turbo Diesel', D, RWD, A]], ['FD']),
  truck('Hino', '700 Series SS 2848', 'Prime Mover', 'prime-mover', 2014, [['Prime Mover', 289990, '12.9L 6cyl Turbo Diesel', D, RWD, AMT]], ['SS']),
  truck('Fuso', 'Canter 515', 'Cab Chassis', 'truck', 2012, [['Wide Cab', 71990, '3.0L 4cyl Turbo Diesel', D, RWD, AMT], ['Tipper', 79990, '3.0L 4cyl Turbo Diesel', D, RWD, AMT]], ['FEB21']),
  truck('Fuso', 'Fighter 1627', 'Tilt Tray', 'truck', 2013, [['Tilt Tray', 198990, '7.7L 6cyl Turbo Diesel', D, RWD, AMT]], ['FK']),
  truck('Fuso', 'Shogun 510', 'Prime Mover', 'prime-mover', 2018, [['Prime Mover', 309990, '12.8L 6cyl Turbo Diesel', D, RWD, AMT]], ['FV']),
  truck('UD', 'Croner PK 17 280', 'Pantech', 'truck', 2016, [['Pantech', 162990, '7.7L 6cyl Turbo Diesel', D, RWD, AMT]], ['PK']),
  truck('UD', 'Quon GW 26 460', 'Prime Mover', 'prime-mover', 2014, [['Prime Mover', 279990, '11.0L 6cyl Turbo Diesel', D, RWD, AMT]], ['GW']),
  truck('Iveco', 'Eurocargo ML160', 'Curtainsider', 'truck', 2015, [['Curtainsider', 154990, '5.9L 6cyl Turbo Diesel', D, RWD, A]]),
  truck('Kenworth', 'T610', 'Prime Mover', 'prime-mover', 2018, [['SAR', 349990, '15.0L 6cyl Turbo Diesel', D, RWD, M]]),
];

function bike(make: string, model: string, body: string, from: number, variants: Variant[]): ModelSpec {
  return { itemType: 'motorcycle', make, model, body, silhouette: 'motorcycle', seats: 2, doors: null, from, variants };
}

export const MOTORCYCLES: readonly ModelSpec[] = [
  bike('Honda', 'CB650R', 'Naked', 2019, [['E-Clutch', 15499, '649cc Inline 4', P, 'Chain', M]]),
  bike('Honda', 'CRF300L', 'Trail', 2021, [['Base', 8999, '286cc Single', P, 'Chain', M]]),
  bike('Honda', 'CRF1100L Africa Twin', 'Adventure', 2020, [['Adventure Sports ES DCT', 29999, '1084cc Parallel Twin', P, 'Chain', A], ['Base', 22999, '1084cc Parallel Twin', P, 'Chain', M]]),
  bike('Honda', 'Rebel 500', 'Cruiser', 2017, [['Base', 10999, '471cc Parallel Twin', P, 'Chain', M]]),
  bike('Yamaha', 'MT-07', 'Naked', 2014, [['LAMS', 12199, '655cc Parallel Twin', P, 'Chain', M], ['Full Power', 12499, '689cc Parallel Twin', P, 'Chain', M]]),
  bike('Yamaha', 'MT-09', 'Naked', 2014, [['Base', 16499, '890cc Triple', P, 'Chain', M], ['SP', 19999, '890cc Triple', P, 'Chain', M]]),
  bike('Yamaha', 'Tenere 700', 'Adventure', 2019, [['Base', 18999, '689cc Parallel Twin', P, 'Chain', M], ['World Raid', 22499, '689cc Parallel Twin', P, 'Chain', M]]),
  bike('Yamaha', 'YZF-R7', 'Sport', 2022, [['Base', 15149, '689cc Parallel Twin', P, 'Chain', M]]),
  bike('Kawasaki', 'Z900', 'Naked', 2017, [['Base', 15999, '948cc Inline 4', P, 'Chain', M], ['SE', 18699, '948cc Inline 4', P, 'Chain', M]]),
  bike('Kawasaki', 'Ninja 400', 'Sport', 2018, [['Base', 8999, '399cc Parallel Twin', P, 'Chain', M], ['KRT Edition', 9299, '399cc Parallel Twin', P, 'Chain', M]]),
  bike('Kawasaki', 'KLR650', 'Adventure', 2013, [['Base', 10999, '652cc Single', P, 'Chain', M]]),
  bike('Kawasaki', 'Vulcan S', 'Cruiser', 2015, [['LAMS', 10499, '649cc Parallel Twin', P, 'Chain', M]]),
  bike('Suzuki', 'V-Strom 650', 'Adventure', 2012, [['XT', 13990, '645cc V-Twin', P, 'Chain', M]]),
  bike('Suzuki', 'DR-Z400E', 'Trail', 2012, [['Base', 11690, '398cc Single', P, 'Chain', M]]),
  bike('Suzuki', 'GSX-8S', 'Naked', 2023, [['Base', 14290, '776cc Parallel Twin', P, 'Chain', M]]),
  bike('Harley-Davidson', 'Street Bob 114', 'Cruiser', 2018, [['Base', 29495, '1868cc V-Twin', P, 'Belt', M]]),
  bike('Harley-Davidson', 'Fat Boy 114', 'Cruiser', 2018, [['Base', 36995, '1868cc V-Twin', P, 'Belt', M]]),
  bike('Harley-Davidson', 'Road Glide', 'Touring', 2014, [['Special', 49995, '1923cc V-Twin', P, 'Belt', M]]),
  bike('Ducati', 'Monster', 'Naked', 2021, [['Plus', 22900, '937cc L-Twin', P, 'Chain', M]]),
  bike('Ducati', 'Scrambler Icon', 'Naked', 2015, [['Base', 16990, '803cc L-Twin', P, 'Chain', M]]),
  bike('Ducati', 'Multistrada V4', 'Adventure', 2021, [['S', 39990, '1158cc V4', P, 'Chain', M]]),
  bike('BMW', 'R 1250 GS', 'Adventure', 2019, [['Adventure', 36990, '1254cc Boxer Twin', P, 'Shaft', M], ['Rallye', 34990, '1254cc Boxer Twin', P, 'Shaft', M]]),
  bike('BMW', 'F 900 R', 'Naked', 2020, [['Sport', 17990, '895cc Parallel Twin', P, 'Chain', M]]),
  bike('KTM', '390 Duke', 'Naked', 2014, [['Base', 8995, '399cc Single', P, 'Chain', M]]),
  bike('KTM', '890 Adventure', 'Adventure', 2021, [['R', 25795, '889cc Parallel Twin', P, 'Chain', M]]),
  bike('Triumph', 'Street Triple', 'Naked', 2013, [['RS', 22990, '765cc Triple', P, 'Chain', M], ['R', 18990, '765cc Triple', P, 'Chain', M]]),
  bike('Triumph', 'Bonneville T120', 'Cruiser', 2016, [['Black', 23990, '1200cc Parallel Twin', P, 'Chain', M]]),
  bike('Triumph', 'Tiger 900', 'Adventure', 2020, [['GT Pro', 27990, '888cc Triple', P, 'Chain', M], ['Rally Pro', 28490, '888cc Triple', P, 'Chain', M]]),
];

function van(make: string, model: string, body: string, silhouette: Silhouette, seats: number, from: number, variants: Variant[]): ModelSpec {
  const itemType: ItemType = silhouette === 'campervan' ? 'campervan' : 'caravan';
  return { itemType, make, model, body, silhouette, seats, doors: 1, from, variants };
}

const NONE: Fuel = 'None';
const TOWED: Transmission = 'None';

/** Caravans (towed; seats = berths, no odometer) and campervans/motorhomes. */
export const RVS: readonly ModelSpec[] = [
  van('Jayco', 'Journey', 'Caravan', 'caravan', 4, 2012, [['19.61-3 Outback', 74990, 'Towed', NONE, null, TOWED], ['21.66-3 Outback', 82990, 'Towed', NONE, null, TOWED]]),
  van('Jayco', 'Starcraft', 'Caravan', 'caravan', 4, 2012, [['17.55-2', 56990, 'Towed', NONE, null, TOWED], ['19.61-3', 61990, 'Towed', NONE, null, TOWED]]),
  van('Jayco', 'Crossover', 'Hybrid Caravan', 'caravan', 4, 2019, [['CRT 17.54-1', 59990, 'Towed', NONE, null, TOWED]]),
  van('Jayco', 'Conquest', 'Motorhome', 'campervan', 4, 2013, [['FA25-1 Ford Transit', 189990, '2.0L 4cyl Turbo Diesel', D, FWD, A]]),
  van('Coromal', 'Element', 'Caravan', 'caravan', 4, 2015, [['E640 Family Bunks', 71990, 'Towed', NONE, null, TOWED]]),
  van('Avan', 'Aspire', 'Pop Top', 'caravan', 2, 2014, [['495 Pop Top', 62990, 'Towed', NONE, null, TOWED]]),
  van('New Age', 'Manta Ray', 'Off-Road Caravan', 'caravan', 2, 2014, [['MR19ERS2', 94990, 'Towed', NONE, null, TOWED]]),
  van('New Age', 'Big Red', 'Off-Road Caravan', 'caravan', 2, 2015, [['BR21ERS', 109990, 'Towed', NONE, null, TOWED]]),
  van('Zone RV', 'Z-3', 'Off-Road Caravan', 'caravan', 2, 2018, [['18ft', 124990, 'Towed', NONE, null, TOWED]]),
  van('MDC', 'XT17HR', 'Hybrid Caravan', 'caravan', 2, 2017, [['Off-Road', 49990, 'Towed', NONE, null, TOWED]]),
  van('Lotus Caravans', 'Trooper', 'Off-Road Caravan', 'caravan', 4, 2014, [['19\'6" Family', 139990, 'Towed', NONE, null, TOWED]]),
  van('Kedron', 'XC4', 'Off-Road Caravan', 'caravan', 2, 2016, [['Top End', 159990, 'Towed', NONE, null, TOWED]]),
  van('Sunliner', 'Holiday', 'Motorhome', 'campervan', 4, 2015, [['H4 Mercedes Sprinter', 219990, '2.0L 4cyl Turbo Diesel', D, RWD, A]]),
  van('Avida', 'Esperance', 'Motorhome', 'campervan', 4, 2013, [['C7944SL Iveco Daily', 229990, '3.0L 4cyl Turbo Diesel', D, RWD, A]]),
  van('Trakka', 'Akuna', 'Campervan', 'campervan', 2, 2016, [['Mercedes Sprinter', 249990, '2.0L 4cyl Turbo Diesel', D, RWD, A]]),
  van('Frontline', 'Camp-Rite', 'Campervan', 'campervan', 2, 2014, [['Toyota HiAce', 119990, '2.8L 4cyl Turbo Diesel', D, RWD, A]]),
  van('Winnebago', 'Bondi', 'Motorhome', 'campervan', 2, 2017, [['Fiat Ducato', 159990, '2.3L 4cyl Turbo Diesel', D, FWD, A]]),
];

export type Colour = { name: string; hex: string };

export const COLOURS: Record<string, Colour> = {
  White: { name: 'White', hex: '#f4f5f6' },
  Black: { name: 'Black', hex: '#1c1e22' },
  Silver: { name: 'Silver', hex: '#b9bec5' },
  Grey: { name: 'Grey', hex: '#6b7280' },
  Blue: { name: 'Blue', hex: '#1f4e9c' },
  Red: { name: 'Red', hex: '#b3202b' },
  Green: { name: 'Green', hex: '#2f6b3a' },
  Orange: { name: 'Orange', hex: '#e06a1b' },
  Bronze: { name: 'Bronze', hex: '#8a6a45' },
  Yellow: { name: 'Yellow', hex: '#e5b319' },
};

/** Colour weights by kind of vehicle (how often each turns up in a dealer's yard). */
export const COLOUR_WEIGHTS: Record<ItemType, ReadonlyArray<readonly [string, number]>> = {
  car: [['White', 30], ['Silver', 14], ['Grey', 18], ['Black', 14], ['Blue', 10], ['Red', 9], ['Green', 2], ['Bronze', 2], ['Orange', 1]],
  truck: [['White', 70], ['Silver', 8], ['Red', 8], ['Blue', 8], ['Yellow', 4], ['Black', 2]],
  motorcycle: [['Black', 30], ['Red', 14], ['Blue', 16], ['Grey', 14], ['White', 10], ['Green', 8], ['Orange', 8]],
  caravan: [['White', 80], ['Silver', 12], ['Grey', 8]],
  campervan: [['White', 80], ['Silver', 12], ['Grey', 8]],
};

export const FEATURES: Record<ItemType, readonly string[]> = {
  car: [
    'Apple CarPlay',
    'Android Auto',
    'Reversing camera',
    '360-degree camera',
    'Adaptive cruise control',
    'Autonomous emergency braking',
    'Lane keep assist',
    'Blind spot monitoring',
    'Rear cross-traffic alert',
    'Keyless entry',
    'Push-button start',
    'Dual-zone climate control',
    'Heated front seats',
    'Leather-appointed seats',
    'Power tailgate',
    'Satellite navigation',
    'Wireless phone charger',
    'Digital instrument cluster',
    'Head-up display',
    'LED headlights',
    'Alloy wheels',
    'Roof rails',
    'Tow bar',
    'Sunroof',
    'Premium sound system',
    'Rear parking sensors',
    'Front parking sensors',
    'Auto-dimming rear-view mirror',
    'Rain-sensing wipers',
    'Third-row seating',
  ],
  truck: [
    'Air-suspended driver seat',
    'Cruise control',
    'Reversing camera',
    'Bluetooth',
    'Exhaust brake',
    'ABS brakes',
    'Side under-run protection',
    'Tail lift',
    'Roller door',
    'Load restraint system',
    'Refrigeration unit',
    'Tow hitch',
    'Air conditioning',
    'Trip computer',
    'Dual fuel tanks',
    'LED work lights',
  ],
  motorcycle: [
    'ABS',
    'Traction control',
    'Ride modes',
    'Quickshifter',
    'TFT display',
    'LED lighting',
    'Slipper clutch',
    'Cruise control',
    'Heated grips',
    'Bluetooth connectivity',
    'Adjustable suspension',
    'Crash bars',
    'Pannier racks',
    'USB charging',
  ],
  caravan: [
    'Ensuite with shower and toilet',
    'Queen bed',
    'Bunk beds',
    'Solar panels',
    'Lithium battery',
    'Diesel heater',
    'Air conditioning',
    'Front-load washing machine',
    'External kitchen',
    'Gas and electric hot water',
    'Roll-out awning',
    'Independent suspension',
    'Twin water tanks',
    'Electric brakes',
    'Reverse-cycle air conditioner',
    '12V fridge',
  ],
  campervan: [
    'Ensuite with shower and toilet',
    'Island bed',
    'Solar panels',
    'Lithium battery',
    'Diesel heater',
    'Roof air conditioner',
    'Reversing camera',
    'Cruise control',
    '3-way fridge',
    'Microwave',
    'Roll-out awning',
    'Swivel cab seats',
    'Apple CarPlay',
    'Fresh and grey water tanks',
  ],
};
