// The 1,051 most frequent lower-cased words (count >= 8, length >= 2) of the WMT17 de-en reference
// (newstest2017-deen-ref.en of data set wmt17-de-en: WMT17 news test set via MENLI, MIT), frozen
// here so that the tiny test model's vocabulary never changes with the data. Order: descending frequency.
export const TEST_MODEL_WORDS: readonly string[] = `
the to of and in is for that on it was with as from are he be said have at this by they has
not an his had will were who been their but people year she there we more up after or one
all out new time its which her also years can about you if when would mr old now first just
two than so over police other like them no some around even percent because last many world
into how do could according three says olympic only women trump state most being back team
between while long day him company before then made thursday these off re friday germany
already since against what get few down should put president group work those take months
euros very own men good your still same country way make however water games four clinton
another security right million final during customers association any things say place our much
going go able where used left well under told several doping did come start rio result house
want too such set see second saying record my end bank attacks here gold german found does
young wants took once number north may home government clear us refugees part market every
came ago through olympics london head federal don court both again within taken sport social
sleep russian report night next line got doctors director city champion almost across past
life july family de always woman went star run reported putin need me man little important
great game election each district days coach children case called away along use today think
staff spd small risk recently homes help far central campaign american without turkey system
street pay near media large issue given five early despite cdu better attack announced video
vehicles states statement six september russia previous positive person middle didn contract
ahead week until summer situation singing really problems previously period news month money
low lot looking former ethiopia companies change bridge authorities air additional addition
whether west wanted top times tax steel stars side reports project private nothing live less
intelligence health community business athletes ve taking speed seen residents republican
records recent public presidential per particular often never ms model minister military might
medal local housing high hard gymnastics greenland further full committee close bit berlin
vote show service rodriguez road must move making look likely led least know junior jobs
involved international including having give general floor find facebook car call british
biles behind became bad won why track south something saw return plant party particularly
members legal increase heart hand half example earlier course chinese best banned among age
added york vinyl verb twitter traffic terms swimmer support soon software site simone similar
season school released release political performance online needs morning lost killed itself
islamic industry hotel gb future food feel fact erdogan eight currently council construction
candidate britain banks areas anyone action works win war violence victory users training
trade together third television snapchat silver shop sewage regional race protection power
post player play perpetrators older officials official office national music moment managing
lower lives leave later june investigation hit gun global force fans everything ever economic
east donald cover china cannot brand area anything analysts alone accommodation venus using
town tourists thousands themselves term syria spin someone shot shooting sharks reason
quarter problem probably possible point plants partner parliament others operations moved
member medical let groups front free following europe enough decision data competition camp
bring board anti allowed aged ad wrote working weeks via turned tried treatment thanks th
tested supply success started shark services sea role returns responsible research refugee
rate property poll played paid open newspaper mother means maizi ll list league late keep
ivanov iran internet instead infrastructure incident holiday heathrow happened gets generation
financial finally field fees explains event european elderly economy due died coup countries
costs compared coming chance centcom build become ban asked ziegelman workers winning wing
wednesday victim user united tuesday try thought though strong station st slow sir seven serious
saturday running room region reality real reached rates quite question pressure prepared obama
medals mecklenburg kenya issues interest hunt hoy hope history higher fourth fight female
explained entire electricity elections current couple cost communities comes coffee clearly
choir chief centres building brought brands book billion big available august afternoon vw
victims vehicle various true train towards title thing taxes table sun stay spokesperson
special smelter showed shops scene restaurants ransomware rain quickly provided provide
postal perfect opened nine nearly metres meeting manager management male major magazine level
lens lead latest kunde known jenner investment interior information include huge happy hands
ground generally focus fiji figures face evidence especially energy either effect drug doesn
deuschle democratic cornwall control continue contact command coe coalition climate champions
cbc caused carry cafe bomb bma based average attempted athlete amount affected administration
actually account vorpommern turnover trampoline tournament threat thinks terrorist terrorism
surprise surface suffered strength step spokesman space simply sense sector section scandal
response researchers relay rather proved price press potential playing planning places passed
outside october nice neighbours needed name muslim motorway minutes michael met matter mass
majority main love longer located living lived leader law largest language langer lane key
issued injured impact hour heavy greens gfk gave frankfurt forward film files fall explain
expected exercise ex eric emotional emergency efforts effective drugs doubt done dispute
difficult different department deck death date damage contracts concerns co closure cent
cats cash calling brown behaviour beam bavaria asylum animals animal yet winner wide whom
white walking volunteers visit usa urbach trying travel tour total tennis task talking talk
swimming successful stra stop steps spent sometimes sold smartphones skinner significant
sign series seconds scotland sample roy revealed results republicans removed remain rejected
putting pulled protect programme prime prices position poor points plans plane pilgrimage
order offered november mrs movement moscow mobile mind metre meaning massive macdonald loss
looks leaders land kenny journey janeiro isn isis ioc industrial individual improved hr houses
hindes hillary hardly hall gymnast guarantee gilead getting garland gabby fresh fraud fit firm
fire families experience events edmund disorders dettori described dangerous crisis crimes
crime count continued complete cluster closed certainly centre cbs buy businesses bus born
body boat believes bacteria apartment annika americans ambassador am airport agreement afd
advertising active act
`.split(/\s+/).filter((w) => w !== '');
